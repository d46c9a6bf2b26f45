"""The game engines: one folder a game, each exporting one spec; ``registry`` finds them lazily."""
