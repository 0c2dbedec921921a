// The emulated RP2040 behind `python -m host_tools chip`: the chip, its flash and its USB.
//
// Everything else (UF2 loading, the pty, the OLED / dice / buzzer decoding, key scripts)
// is Python (host_tools/simulator/chip.py); this process only runs rp2040js and adds what
// rp2040js 1.4.1 lacks for the official MicroPython firmware:
//   - a SPI NOR flash behind the SSI (4 KiB sector erase, page program, status, unique id)
//     so littlefs can write; the flash image file is kept up to date sector by sector;
//   - USB CDC flow: host bytes are queued and handed over when the device asks for them
//     (no spinning on empty packets, nothing dropped beyond 512 bytes);
//   - watchdog reset / machine.reset(): the chip is rebuilt with the same flash;
//   - pad pull-ups and pull-downs: an undriven input reads its pull.
//
// Usage: node chip.js BOOTROM FLASH_IMAGE [--realtime] [--no-oled] [--oled-addr N]
// Messages both ways on stdin / stdout: kind (1 byte), length (4, LE), payload.
// Python -> chip: U serial bytes; B u32 mask of GPIOs driven low (buttons pressed);
//   A u16 ADC3 value (12 bit); R f64 run until this emulated microsecond, then answer r;
//   G run freely (as fast as possible, or paced by the wall clock with --realtime);
//   J u8 1/0: report every flash erase and page program (w) from now on / stop;
//   Q write the flash and quit; X quit at once without writing the last writes (power cut).
// chip -> Python: u serial bytes; i I2C write (address, bytes); s SPI0 bytes; c GP17 level;
//   n WS2812 bytes (GP22, latched); t PWM on GP16 (u32 Hz, u16 duty); r f64 emulated us, f64 us the CPU was busy, f64 flash erases + programs;
//   k the same three figures as r, after each slice while running freely;
//   o the USB serial port is open (enumerated, line state set); x a reset (u8: 1 watchdog);
//   w a flash operation while J is on: f64 emulated us, u8 E (erase) or P (program), u32 flash
//     offset, u32 length, then the programmed bytes (P): what a power cut at any moment keeps;
//   l a log line.
'use strict';
const fs = require('fs');

// Python puts build/rp2040/node_modules (make's `npm ci`) on NODE_PATH.
const { RP2040, USBCDC, ConsoleLogger, LogLevel } = require('rp2040js');

const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16
const SECTOR = 4096;
const PAGE = 256;
const CS_PIN = 17;
const NEOPIXEL_PIN = 22;
const BUZZER_SLICE = 0; // GP16 = PWM slice 0, channel A
const CYCLE_NANOS = 8; // 125 MHz

const args = process.argv.slice(2);
const bootromPath = args[0];
const flashPath = args[1];
const realtime = args.includes('--realtime');
const oledPresent = !args.includes('--no-oled');
const oledAddr = args.includes('--oled-addr') ? Number(args[args.indexOf('--oled-addr') + 1]) : 0x3c;

const bootrom = new Uint32Array(new Uint8Array(fs.readFileSync(bootromPath)).buffer);
const flashFd = fs.openSync(flashPath, 'r+');
const flashImage = new Uint8Array(FLASH_SIZE);
fs.readSync(flashFd, flashImage, 0, FLASH_SIZE, 0);
const dirtySectors = new Set();
let flashOps = 0; // erases and page programs so far: tells a caller when saves happen
let journal = false; // J: each flash operation is reported as it completes (w)

// A flash operation, for a caller that rebuilds the flash as a power cut at any moment
// leaves it (the operations are instant here, so a cut keeps exactly those done before it).
function journalOp(kind, offset, length, data) {
  if (!journal) return;
  const head = Buffer.alloc(17);
  head.writeDoubleLE(nowMicros(), 0);
  head.write(kind, 8, 'latin1');
  head.writeUInt32LE(offset, 9);
  head.writeUInt32LE(length, 13);
  send('w', data ? Buffer.concat([head, Buffer.from(data)]) : head);
}

// ------------------------------------------------------------------ output to Python
let outChunks = [];
let outBytes = 0;
function send(kind, payload) {
  const head = Buffer.alloc(5);
  head.write(kind, 0, 'latin1');
  head.writeUInt32LE(payload.length, 1);
  outChunks.push(head, Buffer.from(payload));
  outBytes += 5 + payload.length;
  if (outBytes > 65536) flushOut();
}
function flushOut() {
  if (!outChunks.length) return;
  const data = Buffer.concat(outChunks);
  outChunks = [];
  outBytes = 0;
  let done = 0;
  while (done < data.length) {
    try {
      done += fs.writeSync(1, data, done);
    } catch (err) {
      if (err.code !== 'EAGAIN') throw err;
    }
  }
}
function log(text) {
  send('l', Buffer.from(String(text)));
}

// ------------------------------------------------------------------ the SPI NOR flash
// Commands arrive byte by byte through the SSI while the bootrom / SDK force the QSPI
// chip select low (IO_QSPI SS override); raising it ends the command.
class NorFlash {
  constructor(mem) {
    this.mem = mem; // the chip's flash array (XIP reads it directly)
    this.bytes = [];
    this.writeEnabled = false;
  }
  select() {
    this.bytes = [];
  }
  // One byte in, one byte out (full duplex).
  transfer(value) {
    const b = this.bytes;
    b.push(value);
    const cmd = b[0];
    const n = b.length;
    if (cmd === 0x05) return 0; // status: never busy, writes are instant
    if (cmd === 0x35) return 0x02; // status 2: QE set
    if (cmd === 0x9f) return [0xef, 0x40, 0x15][n - 2] ?? 0; // JEDEC: W25Q16
    if (cmd === 0x4b) return n > 5 ? 0xe6 ^ (n * 17) : 0; // unique id (4 dummy bytes first)
    if (cmd === 0x03 && n > 4) return this.mem[(this.address() + n - 5) % FLASH_SIZE];
    if (cmd === 0x0b && n > 5) return this.mem[(this.address() + n - 6) % FLASH_SIZE];
    if (cmd === 0x02 && n > 4 && this.writeEnabled) {
      const addr = this.address();
      const at = (addr & ~(PAGE - 1)) | ((addr + n - 5) & (PAGE - 1));
      if (at < FLASH_SIZE) {
        this.mem[at] &= value;
        dirtySectors.add(Math.floor(at / SECTOR));
      }
    }
    return 0;
  }
  address() {
    const b = this.bytes;
    return (b[1] << 16) | (b[2] << 8) | b[3];
  }
  deselect() {
    const b = this.bytes;
    const cmd = b[0];
    if (cmd === 0x06) this.writeEnabled = true;
    else if (cmd === 0x04) this.writeEnabled = false;
    else if (this.writeEnabled && b.length === 4 && (cmd === 0x20 || cmd === 0x52 || cmd === 0xd8)) {
      const size = cmd === 0x20 ? SECTOR : cmd === 0x52 ? 32768 : 65536;
      const start = this.address() & ~(size - 1);
      if (start < FLASH_SIZE) this.erase(start, size);
      this.writeEnabled = false;
    } else if (this.writeEnabled && b.length === 1 && (cmd === 0xc7 || cmd === 0x60)) {
      this.erase(0, FLASH_SIZE);
      this.writeEnabled = false;
    } else if (cmd === 0x02) {
      flashOps++;
      if (b.length > 4 && this.writeEnabled) journalOp('P', this.address(), b.length - 4, b.slice(4));
      this.writeEnabled = false;
    }
    this.bytes = [];
  }
  erase(start, size) {
    flashOps++;
    journalOp('E', start, size, null);
    this.mem.fill(0xff, start, start + size);
    for (let s = start; s < start + size; s += SECTOR) dirtySectors.add(s / SECTOR);
  }
}

function flushFlash(mem) {
  for (const sector of dirtySectors) {
    fs.writeSync(flashFd, mem, sector * SECTOR, SECTOR, sector * SECTOR);
  }
  dirtySectors.clear();
}

// SSI: keeps rp2040js's behaviour for boot2 (chip select driven by the SSI itself); while
// the bootrom / SDK drive the QSPI chip select through IO_QSPI (SS OUTOVER 2 = low,
// 3 = high), the SSI is a plain full-duplex FIFO and, with the select low, talks to the
// NOR flash.
function attachFlash(chip, nor) {
  const ssi = chip.peripherals[0x18000];
  const ssiRead = ssi.readUint32.bind(ssi);
  const ssiWrite = ssi.writeUint32.bind(ssi);
  const rx = [];
  let forced = false; // the chip select is under IO_QSPI control
  let selected = false; // ... and low
  ssi.readUint32 = (offset) => {
    if (forced) {
      if (offset === 0x60) return rx.length ? rx.shift() : 0; // DR0
      if (offset === 0x24) return rx.length; // RXFLR
      if (offset === 0x20) return 0; // TXFLR: sent at once
      if (offset === 0x28) return 0x06 | (rx.length ? 0x08 : 0); // SR: TFNF TFE [RFNE]
    }
    if (offset === 0x48) return 0; // ICR (read to clear)
    return ssiRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    if (forced && offset === 0x60) {
      rx.push(selected ? nor.transfer(value & 0xff) : 0xff);
      return;
    }
    ssiWrite(offset, value);
  };
  // IO_QSPI: a register file (rp2040js leaves it unimplemented, whose reads of all ones
  // would tell the bootrom that every flash operation was aborted).
  const regs = registerFile(chip.peripherals[0x40018], 0x60 / 4);
  const ioQspi = chip.peripherals[0x40018];
  const ioWrite = ioQspi.writeUint32;
  ioQspi.writeUint32 = (offset, value) => {
    ioWrite(offset, value);
    if (offset !== 0x0c) return; // GPIO_QSPI_SS_CTRL
    const over = (value >> 8) & 3;
    const low = over === 2;
    if (low && !selected) nor.select();
    else if (!low && selected) nor.deselect();
    if (over >= 2 && !forced) rx.length = 0;
    forced = over >= 2;
    selected = low;
  };
}

// A peripheral rp2040js leaves unimplemented, as plain registers that read back.
function registerFile(peripheral, words) {
  const regs = new Uint32Array(words);
  peripheral.readUint32 = (offset) => (offset < words * 4 ? regs[offset >> 2] : 0);
  peripheral.writeUint32 = (offset, value) => {
    if (offset < words * 4) regs[offset >> 2] = value;
  };
  return regs;
}

// ------------------------------------------------------------------ USB serial
const hostQueue = [];
let pendingRead = null; // {cdc, size} while the device waits for host bytes
const HOST_OPEN_NANOS = 300e6; // a host opens the port this long after enumeration
let portOpen = false;
function attachUsb(chip) {
  const cdc = new USBCDC(chip.usbCtrl);
  cdc.onSerialData = (buffer) => send('u', buffer);
  // Like a host that opens the port once it has appeared: host bytes flow from 300 ms after
  // the line state (DTR) is set. Bytes handed over while MicroPython is still starting (a
  // Ctrl-C during its boot) leave the rp2 port silent, which no real host can cause.
  portOpen = false;
  const open = chip.clock.createAlarm(() => {
    portOpen = true;
    send('o', []);
    if (pendingRead && hostQueue.length) {
      const { size } = pendingRead;
      pendingRead = null;
      handOver(cdc, size);
    }
  });
  cdc.onDeviceConnected = () => open.schedule(HOST_OPEN_NANOS);
  chip.usbCtrl.onEndpointRead = (endpoint, size) => {
    if (endpoint !== cdc.outEndpoint) return;
    if (hostQueue.length && portOpen) handOver(cdc, size);
    else pendingRead = { cdc, size };
  };
  return cdc;
}
function handOver(cdc, size) {
  const n = Math.min(size, hostQueue.length);
  const buffer = Uint8Array.from(hostQueue.splice(0, n));
  cdc.usb.endpointReadDone(cdc.outEndpoint, buffer);
}
function hostData(bytes) {
  for (const b of bytes) hostQueue.push(b);
  if (pendingRead && hostQueue.length && portOpen) {
    const { cdc, size } = pendingRead;
    pendingRead = null;
    handOver(cdc, size);
  }
}

// ------------------------------------------------------------------ the parts around it
let lowMask = 0; // GPIOs pulled to GND from outside (pressed buttons)
function pinInput(pin) {
  if (lowMask & (1 << pin.index)) return false;
  if (pin.pullupEnabled) return true;
  return false; // pull-down or floating: reads low
}
function attachPins(chip) {
  const pads = chip.peripherals[0x4001c];
  const padsWrite = pads.writeUint32.bind(pads);
  pads.writeUint32 = (offset, value) => {
    padsWrite(offset, value);
    if (offset >= 4 && offset <= 0x78) {
      const pin = chip.gpio[(offset - 4) >> 2];
      pin.setInputValue(pinInput(pin));
    }
  };
  // I2C1: the OLED acknowledges its address; each write transaction goes to Python.
  const i2c = chip.i2c[1];
  let txn = null;
  i2c.onConnect = (address, mode) => {
    const ack = oledPresent && address === oledAddr;
    txn = ack && mode === 0 ? [address] : null;
    i2c.completeConnect(ack);
  };
  i2c.onWriteByte = (value) => {
    if (txn) txn.push(value);
    i2c.completeWrite(true);
  };
  i2c.onReadByte = () => i2c.completeRead(0);
  i2c.onStop = () => {
    if (txn && txn.length > 1) send('i', txn);
    txn = null;
    i2c.completeStop();
  };
  // SPI0 and its chip select on GP17: the MAX7219 chain.
  const spi = chip.spi[0];
  let spiBytes = [];
  const flushSpi = () => {
    if (spiBytes.length) send('s', spiBytes);
    spiBytes = [];
  };
  spi.onTransmit = (value) => {
    spiBytes.push(value & 0xff);
    spi.completeTransmit(0);
  };
  chip.gpio[CS_PIN].addListener((state) => {
    flushSpi();
    send('c', [state === 1 ? 1 : 0]);
  });
  // WS2812 on GP22: a high pulse longer than 625 ns is a one; a low gap of 50 us latches.
  let riseAt = 0;
  let fallAt = 0;
  let bits = 0;
  let nbits = 0;
  let pixelBytes = [];
  chip.gpio[NEOPIXEL_PIN].addListener((state) => {
    const now = chip.clock.nanos;
    if (state === 1) {
      if (now - fallAt > 50000) latchPixels();
      riseAt = now;
    } else if (state === 0 && riseAt) {
      fallAt = now;
      bits = (bits << 1) | (now - riseAt > 625 ? 1 : 0);
      if (++nbits === 8) {
        pixelBytes.push(bits);
        bits = 0;
        nbits = 0;
      }
    }
  });
  function latchPixels() {
    if (pixelBytes.length) send('n', pixelBytes);
    pixelBytes = [];
    bits = 0;
    nbits = 0;
  }
  // PWM slice 0 channel A = GP16: report the tone whenever its registers change.
  const pwm = chip.pwm;
  const pwmWrite = pwm.writeUint32.bind(pwm);
  let lastTone = '';
  pwm.writeUint32 = (offset, value) => {
    pwmWrite(offset, value);
    const ch = pwm.channels[BUZZER_SLICE];
    const on = ch.csr & 1 && chip.gpio[16].functionSelect === 4;
    const div = (ch.div >> 4) + (ch.div & 15) / 16 || 1;
    const period = (ch.top + 1) * (ch.csr & 2 ? 2 : 1);
    const level = ch.cc & 0xffff;
    const freq = on && level ? Math.round(chip.clkSys / div / period) : 0;
    const duty = on ? Math.min(65535, Math.round((level * 65536) / (ch.top + 1))) : 0;
    const key = freq + ':' + duty;
    if (key !== lastTone) {
      lastTone = key;
      const p = Buffer.alloc(6);
      p.writeUInt32LE(freq, 0);
      p.writeUInt16LE(duty, 4);
      send('t', p);
    }
  };
  return () => {
    flushSpi();
    if (chip.clock.nanos - fallAt > 50000) latchPixels();
  };
}

// ------------------------------------------------------------------ the chip
let chip = null;
let clock = null;
let flushParts = null;
let baseNanos = 0; // emulated time before the last reset
let resetPending = false;
let adc3 = 0;
let busyNanos = 0; // emulated time the CPU spent running (not asleep in WFI/WFE)

function build() {
  if (chip) baseNanos += clock.nanos;
  chip = new RP2040();
  clock = chip.clock;
  chip.logger = new ConsoleLogger(process.env.CHIP_DEBUG ? LogLevel.Warn : LogLevel.Error, true);
  chip.logger.error = (component, message) => log(component + ': ' + message);
  chip.loadBootrom(bootrom);
  chip.flash.set(flashImage); // reset() erased it
  attachFlash(chip, new NorFlash(chip.flash));
  registerFile(chip.peripherals[0x40064], 4); // VREG_AND_CHIP_RESET: all ones would mean a rescue reset
  attachUsb(chip);
  flushParts = attachPins(chip);
  for (const pin of chip.gpio) pin.setInputValue(pinInput(pin));
  chip.qspi[1].padValue |= 0x48; // QSPI_SS pad: input enabled, pulled up (the reset value)
  chip.qspi[1].setInputValue(true); // BOOTSEL not held: the bootrom boots from flash
  chip.adc.channelValues[3] = adc3;
  chip.peripherals[0x40058].onWatchdogTrigger = () => {
    resetPending = true;
  };
  pendingRead = null;
  hostQueue.length = 0;
}

function nowMicros() {
  return (baseNanos + clock.nanos) / 1000;
}

function persist() {
  flushFlash(chip.flash);
  flashImage.set(chip.flash.subarray(0, FLASH_SIZE));
}

// ------------------------------------------------------------------ run loop
let target = null; // emulated us to stop at (R), or null
let free = false; // G: run on
let running = false;
const wallStart = Date.now();
let wallBase = 0; // emulated us at wallStart (realtime pacing)

function runSlice() {
  running = false;
  const sliceEnd = Date.now() + 20;
  let idle = false;
  while (Date.now() < sliceEnd) {
    let stopNanos = Infinity;
    // Half a nanosecond early: the stop and the report below must agree despite rounding.
    if (target !== null) stopNanos = target * 1000 - baseNanos - 0.5;
    if (realtime && free) stopNanos = Math.min(stopNanos, (wallBase + (Date.now() - wallStart) * 1000) * 1000 - baseNanos);
    const core = chip.core;
    for (let i = 0; i < 100000; i++) {
      if (clock.nanos >= stopNanos) break;
      if (core.waiting) {
        const next = clock.nanosToNextAlarm;
        if (next <= 0) {
          // Nothing scheduled: only the host can wake it. A stop time is reached at once.
          if (stopNanos !== Infinity) clock.tick(stopNanos - clock.nanos);
          else idle = true;
          break;
        }
        const step = Math.min(next, stopNanos - clock.nanos);
        clock.tick(step);
        if (step < next) break;
      } else {
        const nanos = core.executeInstruction() * CYCLE_NANOS;
        busyNanos += nanos;
        clock.tick(nanos);
      }
      if (resetPending) break;
    }
    if (resetPending) {
      resetPending = false;
      persist();
      build();
      send('x', [1]);
    }
    if (target !== null && clock.nanos >= target * 1000 - baseNanos - 0.5) {
      target = null;
      flushParts();
      flushFlash(chip.flash); // before r: once Python hears of the stop, the file is current
      send('r', timeReport());
      break;
    }
    if (idle || clock.nanos >= stopNanos) break;
  }
  flushParts();
  flushFlash(chip.flash);
  if (free) send('k', timeReport());
  flushOut();
  // Asleep with no alarm: only host data can wake it, and its arrival reschedules.
  if (idle && !realtime) return;
  schedule(idle || (realtime && free && target === null) ? 2 : 0);
}

function timeReport() {
  const p = Buffer.alloc(24);
  p.writeDoubleLE(nowMicros(), 0);
  p.writeDoubleLE(busyNanos / 1000, 8);
  p.writeDoubleLE(flashOps, 16);
  return p;
}

function schedule(delay) {
  if (running || (target === null && !free)) return;
  running = true;
  if (delay) setTimeout(runSlice, delay);
  else setImmediate(runSlice);
}

// ------------------------------------------------------------------ input from Python
let inbuf = Buffer.alloc(0);
process.stdin.on('data', (data) => {
  inbuf = inbuf.length ? Buffer.concat([inbuf, data]) : data;
  while (inbuf.length >= 5) {
    const len = inbuf.readUInt32LE(1);
    if (inbuf.length < 5 + len) break;
    const kind = String.fromCharCode(inbuf[0]);
    const payload = inbuf.subarray(5, 5 + len);
    inbuf = inbuf.subarray(5 + len);
    command(kind, payload);
  }
  schedule(0);
});
process.stdin.on('end', () => quit(true));
process.on('SIGINT', () => {}); // ^C in a terminal reaches the whole group: Python says when to stop

function command(kind, payload) {
  if (kind === 'U') hostData(payload);
  else if (kind === 'B') {
    lowMask = payload.readUInt32LE(0);
    for (const pin of chip.gpio) pin.setInputValue(pinInput(pin));
  } else if (kind === 'A') {
    adc3 = payload.readUInt16LE(0);
    chip.adc.channelValues[3] = adc3;
  } else if (kind === 'R') target = payload.readDoubleLE(0);
  else if (kind === 'J') journal = payload[0] === 1;
  else if (kind === 'G') {
    free = true;
    wallBase = nowMicros() - (Date.now() - wallStart) * 1000;
  } else if (kind === 'Q') quit(true);
  else if (kind === 'X') quit(false);
}

function quit(save) {
  if (save) flushFlash(chip.flash);
  flushOut();
  fs.closeSync(flashFd);
  process.exit(0);
}

build();
flushOut();
