"""The v1 endpoints, one module per resource. Each viewset names its selector, serializers and
filters; the base classes (:mod:`api.viewsets`) carry transactions, scoping and permissions."""
