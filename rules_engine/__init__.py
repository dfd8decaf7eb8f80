"""The rules of the three WWII miniature systems as data and procedures.

Pure Python: this package never imports Django or any part of the service.
"""
