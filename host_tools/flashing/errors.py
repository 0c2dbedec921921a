"""The errors of talking to a device over its serial port, shared by the device link
(device.py) and the readers of what a device sends (untrusted.py)."""


class DeviceError(Exception):
    """A problem with the device or the port; the message is one line for the user."""


class DeviceLost(DeviceError):
    """The port went away or stopped answering in the middle of an operation."""


class DeviceFull(DeviceError):
    """A write failed with ENOSPC: the device has less room than it reported."""
