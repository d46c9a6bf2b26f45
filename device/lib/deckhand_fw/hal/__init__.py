# Hardware abstraction: display, buttons, buzzer, card reader, dealing motor, network, clock.
