# The ESP32 implementation: SSD1306 display on I2C, buttons on GPIO, a PWM buzzer, a card reader
# on UART (one token per line), a stepper dealing motor, Wi-Fi and TLS to AWS IoT Core.
import time

import machine
import network

from .. import layout

PINS = {"sda": 21, "scl": 22, "buzzer": 25, "step": 26, "dir": 27, "enable": 14, "uart_rx": 16, "uart_tx": 17}
BUTTONS = {"left": 32, "right": 33, "select": 34, "ok": 35, "next": 39}


class Display:
    """The SSD1306 128x64 over I2C: 8 rows of 16 characters (layout.py). A handset draws its own
    layout of the screen (``small``); any other lines are wrapped into the rows."""

    small = True

    def __init__(self, i2c):
        try:
            import ssd1306  # pyright: ignore[reportMissingImports]  (installed with mip: package.json)

            self.oled = ssd1306.SSD1306_I2C(128, 64, i2c)
        except (ImportError, OSError):
            self.oled = None

    def show(self, lines, marks=None):
        """``lines`` with ``marks``: a layout's rows (layout.Frame); without: plain lines, wrapped."""
        if self.oled is None:
            for line in lines:
                print(line)
            return
        layout.paint(self.oled, lines, marks)
        self.oled.show()


class Buttons:
    """Five buttons: left/right move the app's cursor (over the hand, or a board's squares), select
    toggles its card (picks its square), next highlights the next option of the prompt, ok sends the
    highlighted option. Each press goes to the app by its name."""

    def __init__(self):
        self.pins = {}
        for name, pin in BUTTONS.items():
            self.pins[name] = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
        self.last = {}

    def poll(self):
        for name, pin in self.pins.items():
            down = pin.value() == 0
            if down and not self.last.get(name):
                self.last[name] = True
                return name
            elif not down:
                self.last[name] = False
        return None


class Buzzer:
    def __init__(self):
        self.pwm = machine.PWM(machine.Pin(PINS["buzzer"]), freq=2000, duty_u16=0)

    def beep(self):
        self.pwm.duty_u16(20000)
        time.sleep_ms(80)
        self.pwm.duty_u16(0)


class Reader:
    def __init__(self):
        self.uart = machine.UART(2, baudrate=115200, rx=PINS["uart_rx"], tx=PINS["uart_tx"], timeout=2000)

    def read(self):
        line = self.uart.readline()
        if not line:
            return None
        token = line.decode().strip().upper()
        return token or None


class Motor:
    STEPS_PER_SEAT = 200

    def __init__(self):
        self.step_pin = machine.Pin(PINS["step"], machine.Pin.OUT)
        self.dir_pin = machine.Pin(PINS["dir"], machine.Pin.OUT)
        self.enable = machine.Pin(PINS["enable"], machine.Pin.OUT, value=1)
        self.position = 0

    def deal(self, seat):
        self.enable.value(0)
        steps = ((seat - self.position) % 4) * self.STEPS_PER_SEAT
        for _ in range(steps):
            self.step_pin.value(1)
            time.sleep_us(500)
            self.step_pin.value(0)
            time.sleep_us(500)
        self.position = seat

    def stop(self):
        self.enable.value(1)


class Sensors:
    """An electronic board's sensor controller on UART2 (the pins of the card reader, which a board has
    not): one event a line, ``up <cell>`` (a piece lifted) or ``down <cell>`` (a piece set down), cells
    numbered as the server's grid (row * width + column, top row first); ``scan <width>`` is answered
    with the glyph each square holds, one row a line, then an empty line."""

    def __init__(self):
        self.uart = machine.UART(2, baudrate=115200, rx=PINS["uart_rx"], tx=PINS["uart_tx"], timeout=50)

    def poll(self):
        line = self.uart.readline()
        if not line:
            return None
        parts = line.decode().split()
        if len(parts) != 2 or parts[0] not in ("up", "down") or not parts[1].isdigit():
            return None
        return parts[0], int(parts[1])

    def scan(self, grid):
        self.uart.write("scan " + str(grid["w"]) + "\n")
        rows = []
        for _ in range(len(grid["r"])):
            line = self.uart.readline()
            if not line or not line.strip():
                break
            rows.append(line.decode().rstrip("\r\n"))
        return rows


class Esp32Hal:
    def __init__(self):
        i2c = machine.I2C(0, sda=machine.Pin(PINS["sda"]), scl=machine.Pin(PINS["scl"]))
        self.display = Display(i2c)
        self.buttons = Buttons()
        self.buzzer = Buzzer()
        self.reader = Reader()
        self.motor = Motor()
        self._sensors = None

    @property
    def sensors(self):
        """An electronic board's sensors: on the card reader's UART, set up only when first asked for."""
        if self._sensors is None:
            self._sensors = Sensors()
        return self._sensors

    def ticks_ms(self):
        return time.ticks_ms()

    def epoch_ms(self):
        return time.time() * 1000

    def connect_network(self, cfg):
        wifi = cfg.get("wifi")
        if not wifi:
            return True
        wlan = network.WLAN(network.STA_IF)
        wlan.active(True)
        if not wlan.isconnected():
            wlan.connect(wifi["ssid"], wifi.get("password", ""))
            for _ in range(100):
                if wlan.isconnected():
                    break
                time.sleep_ms(100)
        return wlan.isconnected()


def make_client(cfg):
    """umqtt.simple over TLS: with the device's certificate (AWS IoT Core, port 8883), or with its
    password from the venue (a local venue's broker, which shows a certificate of the venue CA)."""
    from umqtt.simple import MQTTClient

    context = None
    if cfg["tls"]:
        import tls

        context = tls.SSLContext(tls.PROTOCOL_TLS_CLIENT)
        if "cert" in cfg:
            context.load_cert_chain(cfg["cert"], cfg["key"])
        context.load_verify_locations(cafile=cfg["ca"])  # PROTOCOL_TLS_CLIENT verifies the server
    password = cfg.get("password")
    user = cfg.get("username", cfg["thing"]) if password is not None else None  # a venue: its thing name
    return MQTTClient(
        cfg["thing"],
        cfg["endpoint"],
        port=cfg["port"],
        user=user,
        password=password,
        keepalive=60,
        ssl=context,
    )
