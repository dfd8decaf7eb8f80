"""Output serializers, one module per resource; import each from the module that holds it."""
