"""CRC-32C (Castagnoli), the checksum of TF's checkpoint files and LevelDB tables, in numpy.

The byte-at-a-time table loop runs at a few MB/s in Python, too slow for a model's weights. A large buffer is
cut into `lanes` equal lanes whose raw CRC registers advance together, one numpy step per byte column; the
lanes are then joined pairwise, since a CRC register is linear over GF(2): the register after A||B is
shift_|B|(register after A) xor (register of B from zero), shift_n being the 32x32 bit matrix that feeds n zero
bytes (zlib's crc32_combine). A tail shorter than a lane goes through the table loop.
"""
import numpy as np

POLY = 0x82F63B78  # the Castagnoli polynomial, bit-reflected
WIDTH, LANES = 128, 1 << 14  # 2 MiB a pass: few numpy steps over arrays that stay in cache, 14 joins
MIN_LANES = 64  # 8 KiB: below this the loop is as fast


def _table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ POLY if c & 1 else c >> 1
        table.append(c)
    return table


TABLE = _table()
_NP_TABLE = np.array(TABLE, dtype=np.uint32)


def _loop(register, data):
    table = TABLE
    for byte in data:
        register = table[(register ^ byte) & 0xFF] ^ (register >> 8)
    return register


def _byte_tables(columns):
    """The 32x32 GF(2) matrix `columns` (column j: the image of bit j) as four 256-entry tables, the images of
    each value of each byte of a uint32: applying it is four lookups instead of 32 passes over the lanes."""
    tables = np.zeros((4, 256), dtype=np.uint32)
    for k in range(4):
        for b in range(8):
            tables[k, 1 << b:2 << b] = tables[k, :1 << b] ^ np.uint32(columns[8 * k + b])
    return tables


def _apply(tables, x):
    """The matrix of `tables` (_byte_tables) applied to every uint32 in x."""
    out = tables[0][x & np.uint32(0xFF)]
    for k in range(1, 4):
        out ^= tables[k][(x >> np.uint32(8 * k)) & np.uint32(0xFF)]
    return out


def _times(columns, x):
    """The matrix applied to one int."""
    out, j = 0, 0
    while x:
        if x & 1:
            out ^= columns[j]
        x >>= 1
        j += 1
    return out


def _zeros_operator(count):
    """The matrix that advances a raw register over `count` zero bytes (by squaring the one-byte matrix)."""
    power = [_loop(1 << j, b"\0") for j in range(32)]
    result = [1 << j for j in range(32)]
    while count:
        if count & 1:
            result = [_times(power, column) for column in result]
        count >>= 1
        power = [_times(power, column) for column in power]
    return result


def _lanes(register, view):
    """The register after `view` (a uint8 array): passes of LANES lanes of WIDTH bytes, the rest in passes of
    fewer lanes, the last bytes (under MIN_LANES * WIDTH) by the loop."""
    start, lanes = 0, LANES
    while lanes >= MIN_LANES:
        chunk = lanes * WIDTH
        while len(view) - start >= chunk:
            columns = np.ascontiguousarray(view[start:start + chunk].reshape(lanes, WIDTH).T)
            registers = np.zeros(lanes, dtype=np.uint32)
            registers[0] = register  # lane 0 carries the running register; the others start from zero
            for column in columns:
                registers = _NP_TABLE[(registers ^ column) & np.uint32(0xFF)] ^ (registers >> np.uint32(8))
            for shift in _SHIFTS[:lanes.bit_length() - 1]:
                registers = _apply(shift, registers[0::2]) ^ registers[1::2]
            register, start = int(registers[0]), start + chunk
        lanes //= 2
    return _loop(register, view[start:].tobytes())


def crc32c(data, crc=0):
    """CRC-32C of data (bytes-like), extending crc (as crc32c::Extend)."""
    register = crc ^ 0xFFFFFFFF
    view = np.frombuffer(data, dtype=np.uint8)
    register = _loop(register, bytes(data)) if len(view) < MIN_LANES * WIDTH else _lanes(register, view)
    return register ^ 0xFFFFFFFF


def mask(crc):
    """LevelDB's masked CRC, stored so that a CRC of data holding CRCs stays well mixed."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def unmask(masked):
    rot = (masked - 0xA282EAD8) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def _shifts():
    shift, shifts = _zeros_operator(WIDTH), []
    for _ in range(LANES.bit_length() - 1):
        shifts.append(_byte_tables(shift))
        shift = [_times(shift, column) for column in shift]  # twice as many bytes to skip at the next join
    return shifts


_SHIFTS = _shifts()
