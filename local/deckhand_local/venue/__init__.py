"""The local venue: the whole system on one machine (embedded broker, moto server, bridge, adapters)."""
