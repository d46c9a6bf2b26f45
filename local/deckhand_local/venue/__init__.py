"""The local venue: the whole system on one machine (database, broker, bridge, adapters)."""
