#!/usr/bin/env python3
"""Reads the tensor dumps aclmdlSetDump / aclInit's "dump" section make (openacl's and CANN's
format: an 8-byte little-endian header length, a DumpData protobuf header, then the inputs' and
the outputs' bytes).

  openacl_dump.py FILE_OR_DIR...            one line per tensor: role, index, type, shape, range
  openacl_dump.py --json FILE_OR_DIR...     the same as JSON (with the values when --values)
  openacl_dump.py --npy OUT FILE_OR_DIR...  each tensor as OUT/<file>.<input|output>.<i>.npy

Needs only the Python standard library (the .npy files are written by hand).
"""
import argparse
import json
import math
import os
import struct
import sys

# toolkit.dump OutputDataType -> (name, struct code, numpy descr)
DTYPES = {
    1: ("float32", "f", "<f4"),
    2: ("float16", "e", "<f2"),
    3: ("int8", "b", "|i1"),
    4: ("uint8", "B", "|u1"),
    5: ("int16", "h", "<i2"),
    6: ("uint16", "H", "<u2"),
    7: ("int32", "i", "<i4"),
    8: ("int64", "q", "<i8"),
    9: ("uint32", "I", "<u4"),
    10: ("uint64", "Q", "<u8"),
    11: ("bool", "?", "|b1"),
    12: ("float64", "d", "<f8"),
}
FORMATS = {0: "NCHW", 1: "NHWC", 2: "ND", 3: "NC1HWC0", 4: "FRACTAL_Z"}


class DumpError(Exception):
    pass


def varint(buf, pos):
    value = 0
    shift = 0
    while True:
        if pos >= len(buf):
            raise DumpError("truncated varint")
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise DumpError("varint too long")


def fields(buf):
    """Yields (field number, wire type, value) of one protobuf message."""
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            length, pos = varint(buf, pos)
            if pos + length > len(buf):
                raise DumpError("field %d runs past its message" % number)
            value = buf[pos:pos + length]
            pos += length
        elif wire == 1:
            value = buf[pos:pos + 8]
            pos += 8
        elif wire == 5:
            value = buf[pos:pos + 4]
            pos += 4
        else:
            raise DumpError("wire type %d is not used by dump headers" % wire)
        yield number, wire, value


def shape_of(buf):
    dims = []
    for number, wire, value in fields(buf):
        if number == 1 and wire == 2:  # packed
            pos = 0
            while pos < len(value):
                d, pos = varint(value, pos)
                dims.append(d)
        elif number == 1 and wire == 0:
            dims.append(value)
    return dims


def tensor_of(buf, output):
    t = {"data_type": 0, "format": 2, "shape": [], "size": 0}
    size_field = 6 if output else 5
    for number, wire, value in fields(buf):
        if number == 1 and wire == 0:
            t["data_type"] = value
        elif number == 2 and wire == 0:
            t["format"] = value
        elif number == 3 and wire == 2:
            t["shape"] = shape_of(value)
        elif number == size_field and wire == 0:
            t["size"] = value
    return t


def read_dump(path):
    with open(path, "rb") as f:
        raw = f.read()
    if len(raw) < 8:
        raise DumpError("%s: shorter than the 8-byte header length" % path)
    (header_length,) = struct.unpack_from("<Q", raw, 0)
    if 8 + header_length > len(raw):
        raise DumpError("%s: header length %d runs past the file" % (path, header_length))
    header = raw[8:8 + header_length]
    dump = {"file": path, "op_name": "", "version": "", "dump_time": 0, "inputs": [], "outputs": []}
    for number, wire, value in fields(header):
        if number == 1 and wire == 2:
            dump["version"] = value.decode("utf-8", "replace")
        elif number == 2 and wire == 0:
            dump["dump_time"] = value
        elif number == 3 and wire == 2:
            dump["outputs"].append(tensor_of(value, True))
        elif number == 4 and wire == 2:
            dump["inputs"].append(tensor_of(value, False))
        elif number == 6 and wire == 2:
            dump["op_name"] = value.decode("utf-8", "replace")
    offset = 8 + header_length
    for tensor in dump["inputs"] + dump["outputs"]:
        end = offset + tensor["size"]
        if end > len(raw):
            raise DumpError("%s: the tensors' sizes run past the file" % path)
        tensor["data"] = raw[offset:end]
        offset = end
    if offset != len(raw):
        raise DumpError("%s: %d bytes follow the last tensor" % (path, len(raw) - offset))
    return dump


def values_of(tensor):
    kind = DTYPES.get(tensor["data_type"])
    if kind is None:
        return None
    count = len(tensor["data"]) // struct.calcsize(kind[1])
    return list(struct.unpack("<%d%s" % (count, kind[1]), tensor["data"][:count * struct.calcsize(kind[1])]))


def describe(tensor):
    kind = DTYPES.get(tensor["data_type"], ("type%d" % tensor["data_type"], None, None))
    d = {"dtype": kind[0], "format": FORMATS.get(tensor["format"], str(tensor["format"])),
         "shape": tensor["shape"], "bytes": tensor["size"]}
    values = values_of(tensor)
    finite = [v for v in values or [] if isinstance(v, (int, bool)) or math.isfinite(v)]
    if finite:
        d["min"] = min(finite)
        d["max"] = max(finite)
    if values is not None:
        d["nonfinite"] = len(values) - len(finite)
    return d


def write_npy(path, tensor):
    kind = DTYPES.get(tensor["data_type"])
    if kind is None:
        raise DumpError("no .npy type for data type %d" % tensor["data_type"])
    shape = tuple(tensor["shape"])
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (kind[2], shape)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(tensor["data"])


def files_of(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                for name in sorted(names):
                    yield os.path.join(root, name)
        else:
            yield path


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--values", action="store_true", help="with --json: every value too")
    parser.add_argument("--npy", metavar="DIR", help="write each tensor as a .npy file there")
    args = parser.parse_args(argv)
    dumps = []
    failed = False
    for path in files_of(args.paths):
        try:
            dumps.append(read_dump(path))
        except (DumpError, OSError) as e:
            print("openacl_dump: %s" % e, file=sys.stderr)
            failed = True
    if args.npy:
        os.makedirs(args.npy, exist_ok=True)
    report = []
    for dump in dumps:
        entry = {"file": dump["file"], "op_name": dump["op_name"], "inputs": [], "outputs": []}
        for role in ("inputs", "outputs"):
            for i, tensor in enumerate(dump[role]):
                d = describe(tensor)
                if args.values:
                    d["values"] = values_of(tensor)
                entry[role].append(d)
                if args.npy:
                    write_npy(os.path.join(args.npy, "%s.%s.%d.npy" % (
                        os.path.basename(dump["file"]), role[:-1], i)), tensor)
        report.append(entry)
    if args.json:
        json.dump(report, sys.stdout, indent=1)
        print()
    elif not args.npy:
        for entry in report:
            print(entry["file"])
            for role in ("inputs", "outputs"):
                for i, d in enumerate(entry[role]):
                    extent = " [%g, %g]" % (d["min"], d["max"]) if "min" in d else ""
                    print("  %s %d: %s %s %s%s" % (role[:-1], i, d["dtype"], d["format"],
                                                    "x".join(str(x) for x in d["shape"]) or "scalar",
                                                    extent))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
