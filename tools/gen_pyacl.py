#!/usr/bin/env python3
"""Generates the pyACL bindings (the `acl` Python module) from data.

Reads python/functions.txt (one pyACL function a line: the Python call as clients write it, what
it returns, the C function it wraps, and flags) and the C declarations in include/acl, and writes
a C++ file with one CPython wrapper per function plus the method table of each namespace.

Most functions follow pyACL's rules mechanically, so their wrapper is derived from the C
signature: scalar and handle parameters are Python arguments, non-const pointers to a scalar or
a handle are outputs, and the result is `ret` alone, `(outputs..., ret)`, or the C return value,
as the table's "returns" column says. The generator checks each derived wrapper against that
column (argument count, tuple length) and stops on a disagreement, so a row can only be
generated if the C signature really has the documented shape. Rows flagged `special` are
written by hand in python/src/*.cpp (callbacks, structs as dicts, lists, strings out).

With --check, only reports the rows it would have to refuse.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_api_stubs  # noqa: E402  (reuses its reading of the headers)

SCALARS = {
    "int", "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "short",
    "unsigned short", "char", "signed char", "unsigned char", "bool", "size_t", "int8_t",
    "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float",
    "double", "aclError", "aclFloat16", "uintptr_t",
}


class Types:
    """What each type name in the headers is: handle, enum/scalar, struct, function pointer."""

    def __init__(self, include_dir):
        text = ""
        for root, _, files in os.walk(os.path.join(include_dir, "acl")):
            for f in sorted(files):
                if f.endswith(".h"):
                    with open(os.path.join(root, f), encoding="utf-8") as fh:
                        text += gen_api_stubs.strip_comments_and_directives(fh.read()) + "\n"
        self.handles = set(re.findall(r"typedef\s+void\s*\*\s*(\w+)\s*;", text))
        self.funcs = set(re.findall(r"typedef[^;{}]*?\(\s*\*\s*(\w+)\s*\)\s*\(", text))
        self.opaque = set(re.findall(r"typedef\s+struct\s+\w+\s+(\w+)\s*;", text))
        self.enums = set(re.findall(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", text))
        self.structs = set(re.findall(r"typedef\s+(?:struct|union)\s*\w*\s*\{", text))
        self.structs = set(re.findall(
            r"typedef\s+(?:struct|union)\s*\w*\s*\{(?:[^{}]|\{[^{}]*\})*\}\s*(\w+)\s*;", text))
        self.structs -= self.opaque

    def scalar(self, base):
        return base in SCALARS or base in self.enums


def split_params(params):
    if params in ("", "void"):
        return []
    out, depth, cur = [], 0, ""
    for ch in params:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    out.append(cur.strip())
    return out


def param_parts(param):
    """'const aclmdlDesc *modelDesc' -> ('const aclmdlDesc *', 'modelDesc')."""
    m = re.match(r"^(.*?)(\w+)\s*(\[\s*\])?$", param)
    if not m or not m.group(1).strip():
        return None
    ctype = m.group(1).strip()
    if m.group(3):
        ctype += " *"
    return ctype, m.group(2)


def classify(types, ctype):
    """Returns ('in', local_type) / ('in_str', ...) / ('out', local_type) or None."""
    stars = ctype.count("*")
    # Only a const before the first '*' makes the pointee read-only ('int32_t *const id' is out).
    const = "const" in ctype.split("*")[0]
    base = re.sub(r"\bconst\b|\*|\bstruct\b", " ", ctype)
    base = " ".join(base.split())
    if stars == 0:
        if types.scalar(base) or base in types.handles:
            return ("in", ctype.replace("const ", "").strip())
        return None
    if stars == 1:
        if base == "char":
            return ("in_str", "const char *") if const else None
        if base == "void" or base in types.opaque:
            return ("in", ctype)
        if not const and (types.scalar(base) or base in types.handles):
            return ("out", base)
        if const and types.scalar(base):
            return ("in", ctype)  # an address the caller passes as an int (alpha_ptr, ...)
        return None
    if stars == 2 and not const and (base == "void" or base in types.opaque or types.scalar(base)):
        return ("out", base + " *")
    return None


def py_type(local):
    if "*" in local or local.endswith("Handle"):
        return "int"
    return "float" if local in ("float", "double") else "int"


class Row:
    def __init__(self, line, lineno):
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 3:
            sys.exit(f"functions.txt:{lineno}: expected 'call | returns | C function | flags'")
        self.call, self.returns, self.cfunc = cells[0], cells[1], cells[2]
        self.flags = cells[3].split() if len(cells) > 3 else []
        m = re.match(r"^acl((?:\.\w+)?)\.(\w+)\((.*)\)$", self.call)
        if not m:
            sys.exit(f"functions.txt:{lineno}: cannot read the call {self.call!r}")
        self.ns = m.group(1).lstrip(".")
        self.name = m.group(2)
        self.args = [a.strip() for a in m.group(3).split(",") if a.strip()]
        self.lineno = lineno
        self.ident = f"py_{self.ns or 'acl'}_{self.name}"
        self.pyname = f"acl.{self.ns + '.' if self.ns else ''}{self.name}"

    def shape(self):
        r = self.returns
        if r == "ret":
            return ("ret", [])
        if r.startswith("("):
            elems, depth, cur = [], 0, ""
            for ch in r[1:-1]:  # split at top-level commas: dicts and lists hold commas too
                depth += ch in "[{("
                depth -= ch in "]})"
                if ch == "," and depth == 0:
                    elems.append(cur.strip())
                    cur = ""
                else:
                    cur += ch
            return ("tuple", elems + [cur.strip()])
        if r == "None":
            return ("void", [])
        return ("value", [])


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith("#"):
                rows.append(Row(line, n))
    return rows


def todo(row):
    """A row not bound yet: the function exists with its documented shape and answers
    ACL_ERROR_RT_FEATURE_NOT_SUPPORT, so scripts that probe it see an API error, not an AttributeError."""
    shape, elems = row.shape()
    optional = sum(a.startswith("[") for a in row.args)
    doc = f"{row.pyname}({', '.join(row.args)}) -> {row.returns}"
    result = {"ret": "pyacl::NotBound(kSig)", "void": "(pyacl::NotBound(kSig), Py_None)",
              "value": "(pyacl::NotBound(kSig), pyacl::ToPy(0))"}.get(shape)
    if result is None:
        items = ["pyacl::ToPy(0)"] * (len(elems) - 1) + ["pyacl::NotBound(kSig)"]
        result = f"pyacl::Tuple({{{', '.join(items)}}})"
    if shape == "void":
        result = "(pyacl::NotBound(kSig), Py_NewRef(Py_None))"
    return "\n".join([
        f"static PyObject *{row.ident}(PyObject *, PyObject *args) {{",
        f"  static const char kSig[] = \"{doc}\";",
        f"  if (!pyacl::CheckCount(args, {len(row.args) - optional}, {len(row.args)}, kSig)) return nullptr;",
        f"  return {result};", "}"]) + "\n"


def derive(row, decls, types):
    """Returns the generated C++ of one wrapper, or raises ValueError(why)."""
    if row.cfunc not in decls:
        raise ValueError(f"{row.cfunc} is not declared in include/acl")
    cret, params = decls[row.cfunc]
    ins, outs, call_args = [], [], []
    for p in split_params(params):
        parts = param_parts(p)
        if not parts:
            raise ValueError(f"cannot read parameter {p!r}")
        kind = classify(types, parts[0])
        if f"in={parts[1]}" in row.flags:  # a C buffer the caller passes as an address
            kind = ("in", parts[0])
        if kind is None:
            raise ValueError(f"parameter {p!r} needs a hand-written wrapper")
        if kind[0] == "out":
            outs.append(kind[1])
            call_args.append(f"&o{len(outs) - 1}")
        else:
            ins.append(kind)
            call_args.append(f"a{len(ins) - 1}")
    shape, elems = row.shape()
    echo = []
    if any(re.search(r"list|dims|^\[", a) for a in row.args):
        raise ValueError("a list or optional argument needs a hand-written wrapper")
    if len(ins) != len(row.args):
        raise ValueError(f"C takes {len(ins)} inputs, the table's call {len(row.args)}")
    if shape == "ret":
        if cret != "aclError" or outs:
            raise ValueError("documented as ret, but C has outputs or returns a value")
    elif shape == "tuple":
        if cret != "aclError" or elems[-1] != "ret":
            raise ValueError("a tuple needs an aclError function and ret last")
        extra = len(elems) - 1 - len(outs)
        for e in elems[:extra]:
            if e not in row.args:
                raise ValueError(f"tuple element {e!r} is neither a C output nor an argument")
            echo.append(row.args.index(e))
        if extra < 0 or len(echo) != extra:
            raise ValueError(f"C has {len(outs)} outputs, the table {len(elems) - 1}")
    elif shape == "void":
        if cret != "void" or outs:
            raise ValueError("documented as None, but C returns something")
    else:
        if cret in ("void", "aclError") or outs:
            raise ValueError("documented as a value, but C returns aclError/void or has outputs")
        cret_kind = classify(types, cret)
        if cret_kind is None and cret not in ("const char *", "char *"):
            raise ValueError(f"cannot return {cret!r}")

    sig = ", ".join(f"{a}: {'str' if k[0] == 'in_str' else py_type(k[1])}"
                    for a, k in zip(row.args, ins))
    doc = f"{row.pyname}({sig}) -> {row.returns}"
    lines = [f"static PyObject *{row.ident}(PyObject *, PyObject *args) {{",
             f"  static const char kSig[] = \"{doc}\";",
             f"  PyObject *p[{max(len(ins), 1)}];",
             f"  if (!pyacl::Unpack(args, {len(ins)}, p, kSig)) return nullptr;"]
    for i, k in enumerate(ins):
        lines.append(f"  {k[1]} a{i}{{}};")
    if ins:
        cond = " || ".join(f"!pyacl::Arg(p[{i}], &a{i})" for i in range(len(ins)))
        lines.append(f"  if ({cond}) return pyacl::BadArgs(kSig);")
    for i, t in enumerate(outs):
        lines.append(f"  {t} o{i}{{}};")
    call = f"{row.cfunc}({', '.join(call_args)})"
    if shape == "void":
        lines += ["  Py_BEGIN_ALLOW_THREADS", f"  {call};", "  Py_END_ALLOW_THREADS",
                  "  Py_RETURN_NONE;"]
    else:
        rtype = "aclError" if shape in ("ret", "tuple") else cret
        lines += [f"  {rtype} r{{}};", "  Py_BEGIN_ALLOW_THREADS", f"  r = {call};",
                  "  Py_END_ALLOW_THREADS"]
        if shape in ("ret", "value"):
            lines.append("  return pyacl::ToPy(r);")
        else:
            order = list(range(len(outs)))
            for flag in row.flags:  # order=1,0: pyACL returns the C outputs in another order
                if flag.startswith("order="):
                    order = [int(i) for i in flag[6:].split(",")]
            if sorted(order) != list(range(len(outs))):
                raise ValueError(f"order= must permute the {len(outs)} outputs")
            items = [f"pyacl::ToPy(a{i})" for i in echo]
            items += [f"pyacl::ToPy(o{i})" for i in order] + ["pyacl::ToPy(r)"]
            lines.append(f"  return pyacl::Tuple({{{', '.join(items)}}});")
    lines.append("}")
    return "\n".join(lines) + "\n"


NAMESPACES = ["", "rt", "mdl", "op", "media", "util", "prof", "blas", "himpi", "fv"]


def generate(rows, decls, types):
    out = ["// Generated by tools/gen_pyacl.py from python/functions.txt: do not edit.",
           "#include \"pyacl.h\"", ""]
    specials, refused = [], []
    for row in rows:
        if "special" in row.flags:
            specials.append(row)
            out.append(f"PyObject *{row.ident}(PyObject *, PyObject *);")
    out.append("")
    for row in rows:
        if "special" in row.flags:
            continue
        if "todo" in row.flags:
            out.append(todo(row))
            continue
        try:
            out.append(derive(row, decls, types))
        except ValueError as e:
            refused.append(f"functions.txt:{row.lineno}: {row.pyname}: {e}")
    for ns in NAMESPACES:
        table = f"kMethods_{ns or 'acl'}"
        out.append(f"static PyMethodDef {table}[] = {{")
        for row in rows:
            if row.ns == ns:
                wraps = f"Wraps {row.cfunc}." if row.cfunc != "-" else "pyACL only (no C function)."
                doc = f"{row.call} -> {row.returns}\\n\\n{wraps}".replace('"', '\\"')
                out.append(f"    {{\"{row.name}\", {row.ident}, METH_VARARGS, \"{doc}\"}},")
        out.append("    {nullptr, nullptr, 0, nullptr}};")
    out.append("")
    out.append("const pyacl::Namespace pyacl::kNamespaces[] = {")
    for ns in NAMESPACES:
        out.append(f"    {{\"{ns}\", kMethods_{ns or 'acl'}}},")
    out.append("    {nullptr, nullptr}};")
    return "\n".join(out) + "\n", refused


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--output")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    types = Types(args.include)
    decls = {n: (r, p) for _, r, n, p in gen_api_stubs.declared_functions(args.include)}
    rows = read_rows(args.table)
    seen = set()
    for row in rows:
        if row.pyname in seen:
            sys.exit(f"functions.txt:{row.lineno}: {row.pyname} is listed twice")
        seen.add(row.pyname)
    text, refused = generate(rows, decls, types)
    if refused:
        print("\n".join(refused), file=sys.stderr)
        sys.exit(f"gen_pyacl: {len(refused)} rows need the `special` flag or a fix")
    if args.output and not args.check:
        os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
        old = open(args.output, encoding="utf-8").read() if os.path.exists(args.output) else ""
        if old != text:
            with open(args.output, "w", encoding="utf-8") as f:
                f.write(text)


if __name__ == "__main__":
    main()
