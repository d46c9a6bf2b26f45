"""The tournament director's console (app.py), served by the local venue under ``/console/``."""
