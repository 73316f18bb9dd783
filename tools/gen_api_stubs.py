#!/usr/bin/env python3
"""Generates stubs for the AscendCL functions openacl does not implement yet.

Reads every function declared in include/acl, include/mstx and include/aclnn (nnopbase's
base functions; aclnn operators in include/aclnnop are absent until implemented, never stubbed) (declarations start with
ACL_FUNC_VISIBILITY, MSVP_PROF_API or MSTX_DECLSPEC), asks `nm` which of them the compiled api/
and core/ objects define, and writes:
  --stubs     a C++ file defining each missing function: it records "<name> is not supported by
              openacl yet" and returns ACL_ERROR_RT_FEATURE_NOT_SUPPORT (207000; NULL / 0 / UNDEFINED for
              functions that do not return aclError), plus openaclUnsupportedApis(), the list of
              those names, so tests can compare the library with docs/API_COVERAGE.md;
  --coverage  the API coverage table (docs/API_COVERAGE.md is a checked-in copy of it).
With --list, prints the declared functions as `header name` lines instead.
"""
import argparse
import os
import re
import subprocess
import sys

EXPORT_MACROS = ("ACL_FUNC_VISIBILITY", "MSVP_PROF_API", "MSTX_DECLSPEC")
# The folders of include/ whose headers declare the library's functions.
API_FOLDERS = ("acl", "mstx", "aclnn")
DECL_RE = re.compile(r"\b(?:%s)\b\s+([^;{}]*?\))\s*;" % "|".join(EXPORT_MACROS), re.S)
NAME_RE = re.compile(r"^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)$", re.S)


def strip_comments_and_directives(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out, continuing = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if continuing or stripped.startswith("#"):
            continuing = stripped.endswith("\\")
            continue
        out.append(line)
    return "\n".join(out)


def declared_functions(include_dir):
    """Returns [(header, return_type, name, params)] in header order."""
    result, seen = [], {}
    headers = []
    for folder in API_FOLDERS:
        for root, _, files in os.walk(os.path.join(include_dir, folder)):
            headers += [os.path.join(root, f) for f in files if f.endswith(".h")]
    for path in sorted(headers):
        rel = os.path.relpath(path, include_dir)
        with open(path, encoding="utf-8") as f:
            text = strip_comments_and_directives(f.read())
        for decl in DECL_RE.findall(text):
            decl = " ".join(decl.split())
            m = NAME_RE.match(decl)
            if not m:
                sys.exit(f"gen_api_stubs: cannot parse declaration in {rel}: {decl}")
            ret, name, params = m.group(1).strip(), m.group(2), m.group(3).strip()
            if name in seen:
                sys.exit(f"gen_api_stubs: {name} is declared in both {seen[name]} and {rel}")
            seen[name] = rel
            result.append((rel, ret, name, params))
    return result


OPERATOR_RE = re.compile(r"\bACLNN_API\s+aclnnStatus\s+(aclnn\w+)\s*\(")


def declared_operators(include_dir):
    """Returns [(header, operator)] for include/aclnnop: a two-phase operator once (by its
    second-phase name), one-phase helpers by their name."""
    result = []
    folder = os.path.join(include_dir, "aclnnop")
    if not os.path.isdir(folder):
        return result
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".h"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = strip_comments_and_directives(f.read())
        functions = OPERATOR_RE.findall(text)
        for fn in functions:
            if fn.endswith("GetWorkspaceSize"):
                continue
            result.append((f"aclnnop/{name}", fn))
    return result


def defined_symbols(objects):
    names = set()
    for obj in objects:
        out = subprocess.run(["nm", "--defined-only", "-g", obj], check=True,
                             capture_output=True, text=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TWi":
                names.add(parts[2])
    return names


def read_reasons(path):
    """{name: why} for the functions that mean nothing off the chip (tools/off_chip.tsv)."""
    reasons = {}
    if not path:
        return reasons
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            name, why = line.split("\t", 1)
            reasons[name] = why
    return reasons


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def stub_body(ret, name, why=None):
    call = f'::openacl::ApiNotSupported("{name}")'
    if why is not None:
        call = f'::openacl::ApiOffChip("{name}", {c_string(why)})'
    if ret in ("aclError", "aclnnStatus"):
        return f"return {call};"
    if ret == "void":
        return f"(void){call};"
    if ret == "aclDataType":
        return f"(void){call};\n    return ACL_DT_UNDEFINED;"
    if ret == "aclFormat":
        return f"(void){call};\n    return ACL_FORMAT_UNDEFINED;"
    return f"(void){call};\n    return {{}};"


def write_if_changed(path, text):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_stubs(path, headers, missing, reasons):
    lines = ["// Generated by tools/gen_api_stubs.py: do not edit.",
             "// Functions the headers declare that openacl does not implement yet.",
             "#define ENABLE_DVPP_INTERFACE"]
    lines += [f'#include "{h}"' for h in headers]
    lines += ['#include "core/error.h"', "", "#include <cstddef>", ""]
    for _, ret, name, params in missing:
        body = stub_body(ret, name, reasons.get(name))
        lines.append(f"{ret} {name}({params}) {{\n    {body}\n}}\n")
    lines.append("namespace {")
    lines.append("const char* const kUnsupported[] = {")
    lines += [f'    "{name}",' for _, _, name, _ in missing] or ['    "",']
    lines.append("};")
    lines.append("}  // namespace\n")
    lines.append('extern "C" __attribute__((visibility("default"))) const char* const* '
                 "openaclUnsupportedApis(size_t* count) {")
    lines.append(f"    *count = {len(missing)};")
    lines.append("    return kUnsupported;")
    lines.append("}")
    write_if_changed(path, "\n".join(lines) + "\n")


def operator_section(operators, implemented):
    """The aclnn operators: implemented (both phases defined) or absent. Absent operators are
    not stubbed: clients probe for the symbols and fall back when they are missing."""
    done = [op for _, op in operators if op in implemented]
    out = ["", "## aclnn operators (aclnnop/)", "",
           "Operators the `aclnnop/` headers declare. An operator openacl does not implement is",
           "*absent* from the library (no symbol, no stub): the PyTorch adapter and other clients",
           "look the symbols up and fall back to another path when they are missing. A two-phase",
           "operator is listed by its second phase (`aclnnAdd` stands for",
           "`aclnnAddGetWorkspaceSize` + `aclnnAdd`).", "",
           f"**{len(done)} of {len(operators)} declared operators implemented.**", "",
           "| header | operator | status |", "|---|---|---|"]
    for header, op in operators:
        out.append(f"| `{header}` | `{op}` | {'implemented' if op in implemented else 'absent'} |")
    return out


HCCL_DECL_RE = re.compile(r"\bextern\s+(?:HcclResult|const\s+char\s*\*|uint32_t)\s*(Hccl\w+)\s*\(")
HCCL_NOT_SUPPORTED_RE = re.compile(r'NotSupported\(\s*"(Hccl\w+)"')


def declared_hccl(include_dir):
    """Returns [(header, function)] for include/hccl."""
    result = []
    folder = os.path.join(include_dir, "hccl")
    if not os.path.isdir(folder):
        return result
    for name in sorted(os.listdir(folder)):
        if name.endswith(".h"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = strip_comments_and_directives(f.read())
            result += [(f"hccl/{name}", fn) for fn in HCCL_DECL_RE.findall(text)]
    return result


def hccl_section(functions, implemented, sources):
    """HCCL's functions: written by hand (an HCCL function answers HcclResult codes, so no
    generated stub fits); those that answer HCCL_E_NOT_SUPPORT call NotSupported("<name>", ...)."""
    refused = set()
    for path in sources:
        with open(path, encoding="utf-8") as f:
            refused.update(HCCL_NOT_SUPPORTED_RE.findall(f.read()))
    missing = [fn for _, fn in functions if fn not in implemented]
    if missing:
        sys.exit("gen_api_stubs: HCCL functions declared but not defined: " + ", ".join(missing))
    done = [fn for _, fn in functions if fn not in refused]
    out = ["", "## HCCL (hccl/)", "",
           "HCCL's functions (`libhccl.so`, `libhcomm.so`: names of libascendcl). A function marked",
           "*not supported* returns `HCCL_E_NOT_SUPPORT` and records why for `aclGetRecentErrMsg`.", "",
           f"**{len(done)} of {len(functions)} declared functions implemented.**", "",
           "| header | function | status |", "|---|---|---|"]
    for header, fn in functions:
        out.append(f"| `{header}` | `{fn}` | {'not supported' if fn in refused else 'implemented'} |")
    return out


def write_coverage(path, functions, implemented, reasons, operators=(), hccl=(), hccl_sources=()):
    by_header = {}
    for header, _, name, _ in functions:
        by_header.setdefault(header, []).append(name)
    total, done = len(functions), sum(1 for f in functions if f[2] in implemented)
    out = ["# API coverage", "",
           "Every function the openacl headers declare, and whether libascendcl.so implements it.",
           "A function marked *not supported* returns `ACL_ERROR_RT_FEATURE_NOT_SUPPORT` (207000, the code",
           "CANN gives for a feature the chip lacks; NULL / 0 for",
           "functions that return no `aclError`) and records the message",
           "\"<name> is not supported by openacl yet\" for `aclGetRecentErrMsg`. Functions that cannot",
           "mean anything off an Ascend chip say why instead, in the message and below",
           "(`tools/off_chip.tsv`).", "",
           "This file is generated by `tools/gen_api_stubs.py` during the build; the test",
           "`api_coverage_doc_is_current` fails when it and the library disagree. Refresh it with",
           "`cmake --build build --target api-coverage`.", "",
           f"**{done} of {total} functions implemented.**", "",
           "| header | declared | implemented | not supported |", "|---|---|---|---|"]
    for header, names in by_header.items():
        n = sum(1 for x in names if x in implemented)
        out.append(f"| `{header}` | {len(names)} | {n} | {len(names) - n} |")
    for header, names in by_header.items():
        out += ["", f"## {header}", "", "| function | status |", "|---|---|"]
        for name in names:
            if name in implemented:
                status = "implemented"
            elif name in reasons:
                status = f"not supported off the chip: {reasons[name]}"
            else:
                status = "not supported"
            out.append(f"| `{name}` | {status} |")
    if operators:
        out += operator_section(operators, implemented)
    if hccl:
        out += hccl_section(hccl, implemented, hccl_sources)
    write_if_changed(path, "\n".join(out) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--include", required=True)
    ap.add_argument("--stubs")
    ap.add_argument("--coverage")
    ap.add_argument("--reasons", help="tools/off_chip.tsv: functions that mean nothing off the chip")
    ap.add_argument("--objects", nargs="*", default=[])
    ap.add_argument("--hccl-sources", nargs="*", default=[],
                    help="the files defining HCCL's entry points (their NotSupported calls)")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    functions = declared_functions(args.include)
    if args.list:
        for header, _, name, _ in functions:
            print(header, name)
        return
    implemented = defined_symbols(args.objects)
    headers = sorted({f[0] for f in functions})
    missing = [f for f in functions if f[2] not in implemented]
    reasons = read_reasons(args.reasons)
    declared = {f[2] for f in functions}
    for name in reasons:
        if name not in declared or name in implemented:
            sys.exit(f"gen_api_stubs: {args.reasons} lists {name}, which is "
                     + ("implemented" if name in declared else "not declared"))
    if args.stubs:
        write_stubs(args.stubs, headers, missing, reasons)
    if args.coverage:
        write_coverage(args.coverage, functions, implemented, reasons,
                       declared_operators(args.include), declared_hccl(args.include),
                       args.hccl_sources)


if __name__ == "__main__":
    main()
