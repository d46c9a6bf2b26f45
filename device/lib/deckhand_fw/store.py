# Small persistent state in files (flash on the device, a folder on the host).
import json


class FileStore:
    def __init__(self, folder):
        self.folder = folder.rstrip("/")

    def _path(self, name):
        return self.folder + "/" + name + ".json"

    def load(self, name, default):
        try:
            with open(self._path(name)) as f:
                return json.loads(f.read())
        except (OSError, ValueError):
            return default

    def save(self, name, value):
        # Write a new file then rename: a reset mid-write never leaves a half file.
        tmp = self._path(name) + ".tmp"
        with open(tmp, "w") as f:
            f.write(json.dumps(value))
        import os

        os.rename(tmp, self._path(name))

    def load_int(self, name, default):
        value = self.load(name, default)
        return value if isinstance(value, int) else default

    def save_int(self, name, value):
        self.save(name, value)
