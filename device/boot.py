# Runs before main.py on every reset: free what boot-time code left behind.
import gc

gc.collect()
