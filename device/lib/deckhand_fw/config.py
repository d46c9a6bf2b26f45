# config.json: who this device is and where it connects. Errors name the field, for the display.
import json

REQUIRED = ("thing", "role", "endpoint")
ROLES = ("handset", "dealer", "eboard")


class ConfigError(Exception):
    pass


def parse(text):
    try:
        cfg = json.loads(text)
    except ValueError:
        raise ConfigError("config.json is not valid JSON") from None
    if not isinstance(cfg, dict):
        raise ConfigError("config.json must be an object")
    for name in REQUIRED:
        if not isinstance(cfg.get(name), str) or not cfg.get(name):
            raise ConfigError("config.json: '" + name + "' is missing")
    if cfg["role"] not in ROLES:
        raise ConfigError("config.json: role must be handset, dealer or eboard")
    port = cfg.get("port", 8883)
    if not isinstance(port, int) or not 0 < port < 65536:
        raise ConfigError("config.json: port must be 1..65535")
    cfg["port"] = port
    tls = cfg.get("tls", True)
    cfg["tls"] = bool(tls)
    for name in ("username", "password"):
        if name in cfg and not isinstance(cfg[name], str):
            raise ConfigError("config.json: '" + name + "' must be text")
    if "password" in cfg and cfg.get("username", cfg["thing"]) != cfg["thing"]:
        raise ConfigError("config.json: 'username' must be the thing name")
    if cfg["tls"]:
        # IoT Core: the thing's certificate and key; a local venue: its password (and the venue CA).
        needed = ("ca",) if "password" in cfg else ("cert", "key", "ca")
        for name in needed:
            if not isinstance(cfg.get(name), str):
                raise ConfigError("config.json: '" + name + "' (certificate file) is missing")
    wifi = cfg.get("wifi")
    if wifi is not None and (not isinstance(wifi, dict) or not isinstance(wifi.get("ssid"), str)):
        raise ConfigError("config.json: wifi needs an ssid")
    return cfg


def load(path="config.json"):
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        raise ConfigError("config.json not found: provision this device (docs/devices.md)") from None
    return parse(text)
