#!/usr/bin/env python3
"""Generates what ascendc.cmake's ascendc_library needs around Ascend C kernel sources.

For each kernel source it reads the source as the host compiler preprocessed it (-E, with
openacl/kernel.h kept out so that __global__, __aicore__ and __gm__ survive), finds every
__global__ kernel definition, and writes:

  <include>/aclrtlaunch_<kernel>.h            extern "C" uint32_t aclrtlaunch_<kernel>(numBlocks,
                                              stream, params...) and ACLRT_LAUNCH_KERNEL(k)
  <include>/aclrtlaunch_triple_chevrons_func.h one host function per kernel, named as the kernel,
                                              taking (numBlocks, hold, stream, params...): what
                                              k<<<numBlocks, hold, stream>>>(params...) becomes
  <auto_gen>/<key>.cpp                        the source with every <<<>>> launch rewritten into
                                              that call (same lines, #line keeps the user's file
                                              name), followed by the launch stubs: the packed
                                              argument struct of each kernel, its block function,
                                              the kernel table, and aclrtlaunch_<kernel>

The rewritten copy is what the library compiles, so the stubs see the kernels' own types
(tiling structs by value) and the launches lower in the same translation unit.
"""
import argparse
import os
import re
import sys

PROG = "ascendc_gen"

# ---------------------------------------------------------------------------------------------
# Tokens


class Tok:
    __slots__ = ("kind", "text", "pos")

    def __init__(self, kind, text, pos):
        self.kind, self.text, self.pos = kind, text, pos

    def __repr__(self):
        return f"{self.kind}:{self.text}"


_TOKEN_RE = re.compile(r"""
    (?P<ws>\s+)
  | (?P<lc>//[^\n]*)
  | (?P<bc>/\*.*?\*/)
  | (?P<raw>R"(?P<delim>[^()\\\s]{0,16})\(.*?\)(?P=delim)")
  | (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)+')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.']|[eEpP][+-])*)
  | (?P<p>::|->|\.\.\.|&&|\|\||[-+*/%^&|~!=<>?:;,.(){}\[\]#@\\$])
""", re.S | re.X)


def tokenize(text):
    """C++ tokens of `text`, without comments; lines starting with '#' (line markers and other
    directives a preprocessed file keeps) are skipped. '<' and '>' are always single tokens."""
    out = []
    pos, n = 0, len(text)
    line_start = True
    while pos < n:
        if line_start:
            m = re.match(r"[ \t]*#[^\n]*(?:\\\n[^\n]*)*", text[pos:])
            if m and m.group(0).strip().startswith("#"):
                pos += m.end()
                continue
        m = _TOKEN_RE.match(text, pos)
        if not m:
            pos += 1
            continue
        kind = m.lastgroup if m.lastgroup != "delim" else "raw"
        if kind in ("ws", "lc", "bc"):
            line_start = "\n" in m.group(0) if kind != "lc" else line_start
            if kind == "bc" and "\n" in m.group(0):
                line_start = False
            pos = m.end()
            continue
        line_start = False
        if kind == "raw":
            kind = "str"
        out.append(Tok(kind, m.group(0), pos))
        pos = m.end()
    return out


def join(tokens):
    """Source text of tokens, spaced only where two words would otherwise merge."""
    text = ""
    prev = None
    for t in tokens:
        s = t.text if isinstance(t, Tok) else t
        if prev is not None and (re.match(r"\w", s) and re.search(r"\w$", prev)):
            text += " "
        elif prev is not None and prev == "," :
            text += " "
        text += s
        prev = s
    return text


OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {v: k for k, v in OPEN.items()}


def matching(tokens, i, angles=False):
    """Index of the token closing the bracket at tokens[i]."""
    depth = 0
    opener = tokens[i].text
    closer = ">" if opener == "<" else OPEN[opener]
    for j in range(i, len(tokens)):
        t = tokens[j].text
        if t == opener or (angles and t == "<") or t in OPEN:
            depth += 1
        elif t == closer or (angles and t == ">") or t in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced '{opener}'")


def split_top(tokens, sep=","):
    """Splits tokens at `sep` outside (), [], {} and <>."""
    parts, cur, depth, angle = [], [], 0, 0
    for t in tokens:
        s = t.text
        if s in OPEN:
            depth += 1
        elif s in CLOSE:
            depth -= 1
        elif s == "<":
            angle += 1
        elif s == ">" and angle > 0:
            angle -= 1
        if s == sep and depth == 0 and angle == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or parts:
        parts.append(cur)
    return parts


# ---------------------------------------------------------------------------------------------
# Kernels and structs in a preprocessed translation unit

# Words around a kernel's name that are qualifiers, not types (some take an argument list).
QUALIFIERS = {"__global__", "__aicore__", "__vector__", "__cube__", "__inline__", "inline",
              "static", "extern", "__forceinline__", "constexpr", "__simd_vf__", "__device__",
              "__host__", "__noinline__"}
QUALIFIERS_WITH_ARGS = {"__launch_bounds__", "__mix__", "__attribute__", "alignas", "__declspec",
                        "__cluster_dims__"}
BUILTIN_WORDS = {"void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float",
                 "double", "wchar_t", "char16_t", "char32_t", "char8_t", "__int128", "const",
                 "volatile"}
FIXED_WIDTH = {"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
               "uint64_t", "size_t", "ssize_t", "intptr_t", "uintptr_t", "ptrdiff_t"}
CV = {"const", "volatile"}
ADDRESS_SPACES = {"__gm__", "__ubuf__", "__ca__", "__cb__", "__cc__", "__fbuf__", "__ssbuf__"}


class Struct:
    def __init__(self, name, keyword, namespace, alias_of=None):
        self.name, self.keyword, self.namespace, self.alias_of = name, keyword, namespace, alias_of

    def forward(self):
        """C++ lines declaring the type in a header, or None if it cannot be declared there."""
        if self.keyword is None:
            return None  # a typedef of an unnamed struct: only its definition names it
        lines = []
        if self.alias_of:
            lines.append(f"{self.keyword} {self.alias_of}; typedef {self.keyword} "
                         f"{self.alias_of} {self.name};")
        else:
            lines.append(f"{self.keyword} {self.name};")
        return wrap_namespace(self.namespace, lines)

    def qualified(self):
        return "::".join([""] + self.namespace + [self.name]) if self.namespace else self.name


def wrap_namespace(namespace, lines):
    if not namespace:
        return lines
    return [f"namespace {'::'.join(namespace)} {{"] + lines + ["}"]


class Param:
    def __init__(self, type_tokens, name, index):
        self.type_tokens = type_tokens
        self.name = name or f"openacl_arg{index}"
        self.type = join(type_tokens)
        words = [t.text for t in type_tokens]
        self.pointer = "*" in words or "GM_ADDR" in words
        self.reference = "&" in words and not self.pointer
        # The type without cv-qualifiers and address spaces: what the packed struct holds.
        core = [t for t in type_tokens if t.text not in CV | ADDRESS_SPACES | {"&"}]
        self.value_type = join(core) if not self.pointer else join(
            [t for t in type_tokens if t.text not in ADDRESS_SPACES])
        self.base = [t.text for t in core if t.kind == "id" or t.text == "::"]
        self.kind = "pointer" if self.pointer else "scalar"
        self.struct = None


class Kernel:
    def __init__(self, name, params, namespace, extern_c, template, source, cube=False, mix=0):
        self.name, self.params, self.namespace = name, params, namespace
        self.extern_c, self.template, self.source = extern_c, template, source
        self.cube = cube  # declared __cube__: its blocks are cube cores (ASCEND_IS_AIC)
        # AIVs per AIC of a mix kernel (__mix__(1, n) or KERNEL_TYPE_MIX_AIC_1_n), 0 otherwise:
        # each block then runs as one AIC and n AIVs at once.
        self.mix = mix

    @property
    def qualified(self):
        return "::".join([""] + self.namespace + [self.name])


def parse_params(tokens):
    parts = split_top(tokens)
    if len(parts) == 1 and (not parts[0] or [t.text for t in parts[0]] == ["void"]):
        return []
    params = []
    for i, part in enumerate(parts):
        # A default argument is no part of the type.
        for j, t in enumerate(part):
            if t.text == "=":
                part = part[:j]
                break
        if not part:
            raise ValueError("an empty parameter")
        if part[-1].text == "...":
            raise ValueError("a parameter pack or C variadic parameter (not supported)")
        name = None
        last = part[-1]
        if (len(part) > 1 and last.kind == "id" and last.text not in BUILTIN_WORDS
                and last.text not in FIXED_WIDTH and last.text != "GM_ADDR"
                and part[-2].text != "::"):
            name = last.text
            part = part[:-1]
        params.append(Param(part, name, i))
    return params


def scan(text, source="<source>"):
    """The kernels (definitions only) and the struct types of a preprocessed source."""
    tokens = tokenize(text)
    kernels, structs = [], {}
    scopes = []  # ("ns", name) | ("extern_c", None)

    def namespace():
        return [n for kind, n in scopes if kind == "ns" and n]

    def extern_c():
        return any(kind == "extern_c" for kind, _ in scopes)

    stmt = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        s = t.text
        if s == ";":
            stmt = []
            i += 1
            continue
        if s == "}":  # the end of a namespace or extern "C" block
            if scopes:
                scopes.pop()
            stmt = []
            i += 1
            continue
        if s != "{":
            stmt.append(t)
            i += 1
            continue
        words = [x.text for x in stmt]
        if words and (words[0] == "namespace" or words[:2] == ["inline", "namespace"]):
            names = [w for w in words if w not in ("inline", "namespace", "::")]
            scopes.append(("ns", "::".join(names) if names else None))  # None: anonymous
            stmt = []
            i += 1
            continue
        if words in (["extern", '"C"'], ["extern", '"C++"']):
            scopes.append(("extern_c" if words[1] == '"C"' else "extern_cpp", None))
            stmt = []
            i += 1
            continue
        end = matching(tokens, i)
        record_struct(stmt, tokens, i, end, namespace(), structs)
        if "__global__" in words:
            kernel = parse_kernel(stmt, namespace(), extern_c(), source)
            if kernel:
                kernel.mix = kernel.mix or body_mix(tokens[i + 1:end])
                kernels.append(kernel)
        i = end + 1
        head = strip_template(words)
        if head and head[0] in ("struct", "class", "union", "enum", "typedef") or "=" in top_level(head):
            stmt.append(Tok("p", "{}", t.pos))  # the declaration goes on to its ';'
        else:
            stmt = []  # a function body ends its definition
    for k in kernels:
        for p in k.params:
            if p.pointer:
                continue
            if p.base and p.base[-1] in structs and not all(
                    w in BUILTIN_WORDS or w in FIXED_WIDTH for w in p.base):
                p.kind = "struct"
                p.struct = structs[p.base[-1]]
    return kernels, structs


def top_level(words):
    """The words outside any brackets."""
    out, depth = [], 0
    for w in words:
        if w in "([{":
            depth += 1
        elif w in ")]}":
            depth -= 1
        elif depth == 0:
            out.append(w)
    return out


def strip_template(words):
    if words[:1] == ["template"] and len(words) > 1 and words[1] == "<":
        depth = 0
        for j in range(1, len(words)):
            if words[j] == "<":
                depth += 1
            elif words[j] == ">":
                depth -= 1
                if depth == 0:
                    return words[j + 1:]
    return words


def record_struct(stmt, tokens, open_index, close_index, namespace, structs):
    words = [x.text for x in stmt]
    head = strip_template(words)
    if head != words:
        return  # class templates are no tiling structs
    typedef = head[:1] == ["typedef"]
    if typedef:
        head = head[1:]
    if not head or head[0] not in ("struct", "class", "union"):
        return
    keyword = head[0]
    tag = None
    for w in head[1:]:
        if w in (":", "final"):
            break
        if re.match(r"[A-Za-z_]\w*$", w) and w not in ("alignas", "__attribute__"):
            tag = w
    if tag:
        structs[tag] = Struct(tag, keyword, namespace)
    if typedef:
        # typedef struct [Tag] { ... } Name;  (Name is the last word before ';')
        j = close_index + 1
        names = []
        while j < len(tokens) and tokens[j].text != ";":
            if tokens[j].kind == "id":
                names.append(tokens[j].text)
            j += 1
        if names:
            alias = names[-1]
            structs[alias] = (Struct(alias, keyword, namespace, alias_of=tag) if tag
                              else Struct(alias, None, namespace))


def parse_kernel(stmt, namespace, extern_c, source):
    toks = list(stmt)
    template = None
    if toks and toks[0].text == "extern" and len(toks) > 1 and toks[1].text == '"C"':
        extern_c = True
        toks = toks[2:]
    if toks and toks[0].text == "template":
        if len(toks) < 2 or toks[1].text != "<":
            return None  # an explicit instantiation
        close = matching(toks, 1, angles=True)
        template = toks[2:close]
        toks = toks[close + 1:]
        if not template:
            return None  # an explicit specialisation: its primary template is launched
    if toks and toks[0].text == "extern" and len(toks) > 1 and toks[1].text == '"C"':
        extern_c = True
        toks = toks[2:]
    # The first '(' that opens no qualifier's arguments opens the parameters.
    j = 0
    while j < len(toks):
        w = toks[j].text
        if w in QUALIFIERS_WITH_ARGS and j + 1 < len(toks) and toks[j + 1].text == "(":
            j = matching(toks, j + 1) + 1
            continue
        if w == "[":  # an attribute [[...]]
            j = matching(toks, j) + 1
            continue
        if w == "(":
            break
        j += 1
    if j >= len(toks) or j == 0:
        return None
    name_tok = toks[j - 1]
    if name_tok.kind != "id":
        return None
    qual = []
    k = j - 2
    while k >= 1 and toks[k].text == "::" and toks[k - 1].kind == "id":
        qual.insert(0, toks[k - 1].text)
        k -= 2
    before = [x.text for x in toks[:j - 1]]
    if "void" not in before:
        sys.stderr.write(f"{PROG}: {source}: __global__ function {name_tok.text} does not "
                         "return void; skipped\n")
        return None
    close = matching(toks, j)
    try:
        params = parse_params(toks[j + 1:close])
    except ValueError as e:
        sys.exit(f"{PROG}: {source}: kernel {name_tok.text}: cannot read its parameters: {e}")
    return Kernel(name_tok.text, params, namespace + qual, extern_c, template, source,
                  cube="__cube__" in before, mix=declared_mix(before))


def declared_mix(words):
    """n of a __mix__(1, n) qualifier among the words before a kernel's name, else 0."""
    if "__mix__" not in words:
        return 0
    i = words.index("__mix__")
    numbers = [w for w in words[i + 1:i + 6] if w.isdigit()]
    ok = len(numbers) >= 2 and numbers[0] == "1" and numbers[1] in ("1", "2")
    return int(numbers[1]) if ok else 0


def body_mix(tokens):
    """n when a kernel's body declares KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_n)."""
    for t in tokens:
        if t.text == "KERNEL_TYPE_MIX_AIC_1_2":
            return 2
        if t.text == "KERNEL_TYPE_MIX_AIC_1_1":
            return 1
    return 0


# ---------------------------------------------------------------------------------------------
# <<<>>> lowering on the user's source


def rewrite_chevrons(text, source="<source>"):
    """Rewrites every `callee<<<a, b, c>>>(args)` into `callee(a, b, c, args)`, keeping every
    line where it was. 1, 2 or 4 launch arguments are filled up to the three the wrapper takes:
    <<<n>>> = <<<n, 0, nullptr>>>, <<<n, b>>> = <<<n, b, nullptr>>>, and the SIMT form <<<n,
    threads, ubuf, stream>>> drops the thread count (one thread per block on the CPU)."""
    out = []
    pos = 0
    n = len(text)
    skip = re.compile(r"""//[^\n]*|/\*.*?\*/|R"([^()\\\s]{0,16})\(.*?\)\1"|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""",
                      re.S)
    i = 0
    while i < n:
        m = skip.match(text, i)
        if m and m.end() > i:
            i = m.end()
            continue
        if text.startswith("<<<", i):
            j = i + 3
            depth = 0
            while j < n:
                m = skip.match(text, j)
                if m and m.end() > j:
                    j = m.end()
                    continue
                c = text[j]
                if c in "([{":
                    depth += 1
                elif c in ")]}":
                    depth -= 1
                elif depth == 0 and text.startswith(">>>", j):
                    break
                j += 1
            if j >= n:
                sys.exit(f"{PROG}: {source}:{text.count(chr(10), 0, i) + 1}: '<<<' without '>>>'")
            launch = text[i + 3:j]
            k = j + 3
            while k < n and text[k].isspace():
                k += 1
            if k >= n or text[k] != "(":
                sys.exit(f"{PROG}: {source}:{text.count(chr(10), 0, i) + 1}: a kernel launch "
                         "'<<<...>>>' must be followed by its argument list '(...)'")
            launch_args = [a.strip() for a in split_text_args(launch)]
            if not 1 <= len(launch_args) <= 4:
                sys.exit(f"{PROG}: {source}:{text.count(chr(10), 0, i) + 1}: a kernel launch "
                         f"takes 1 to 4 arguments between <<< and >>>, not {len(launch_args)}")
            if len(launch_args) == 1:
                launch_args += ["0", "nullptr"]
            elif len(launch_args) == 2:
                launch_args.append("nullptr")
            elif len(launch_args) == 4:
                launch_args = [launch_args[0],
                               f"(static_cast<void>({launch_args[1]}), {launch_args[2]})",
                               launch_args[3]]
            # Empty arguments: no comma after the launch arguments.
            m2 = re.match(r"\s*\)", text[k + 1:])
            inserted = " ".join(", ".join(a.strip() for a in launch_args).split())
            inserted += "" if m2 else ", "
            out.append(text[pos:i])
            # The chevrons' lines stay lines: their newlines go where they were.
            out.append("\n" * text.count("\n", i, k))
            out.append("(" + inserted)
            pos = k + 1
            i = k + 1
            continue
        i += 1
    out.append(text[pos:])
    return "".join(out)


def split_text_args(text):
    parts, depth, cur = [], 0, ""
    i = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
        i += 1
    parts.append(cur)
    return [p for p in parts] if any(p.strip() for p in parts) else []


# ---------------------------------------------------------------------------------------------
# Generated files

HEADER_NOTE = "// Generated by openacl's ascendc_gen.py (ascendc.cmake) from {src}: do not edit."


def launch_names(kernel):
    names = {p.name for p in kernel.params}
    blocks = "numBlocks"
    stream = "stream"
    while blocks in names:
        blocks = "_" + blocks
    while stream in names:
        stream = "_" + stream
    return blocks, stream


def header_param(p):
    if p.kind == "pointer":
        return f"void* {p.name}"
    if p.kind == "struct":
        if p.struct.keyword is None:
            return f"void* {p.name}"  # an unnamed struct's typedef cannot be declared here
        return f"{p.struct.qualified()}* {p.name}"
    return f"{p.value_type} {p.name}"


def launch_header(kernel):
    guard = "ACLRTLAUNCH_" + re.sub(r"\W", "_", kernel.name).upper() + "_H"
    blocks, stream = launch_names(kernel)
    lines = [HEADER_NOTE.format(src=os.path.basename(kernel.source)),
             f"#ifndef {guard}", f"#define {guard}", "", "#include <stdint.h>", "",
             '#include "acl/acl_base.h"', ""]
    seen = set()
    for p in kernel.params:
        if p.kind == "struct" and p.struct.name not in seen:
            seen.add(p.struct.name)
            fwd = p.struct.forward()
            if fwd:
                lines += fwd
    params = ", ".join([f"uint32_t {blocks}", f"aclrtStream {stream}"] +
                       [header_param(p) for p in kernel.params])
    lines += ["", "#ifdef __cplusplus", 'extern "C" {', "#endif",
              f"// Launches {kernel.name} over {blocks} blocks on {stream}, asynchronously; "
              "returns 0 or the ACL error code.",
              f"uint32_t aclrtlaunch_{kernel.name}({params});",
              "#ifdef __cplusplus", "}", "#endif", "",
              "#ifndef ACLRT_LAUNCH_KERNEL",
              "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func",
              "#endif", "", f"#endif  // {guard}", ""]
    return "\n".join(lines)


def wrapper_params(kernel):
    """The wrapper's parameters (as k<<<>>>(args) passes them) and the arguments it hands to
    aclrtlaunch_<k>."""
    params, args = [], []
    for p in kernel.params:
        if p.kind == "pointer":
            params.append(f"const volatile void* {p.name}")
            args.append(f"const_cast<void*>({p.name})")
        elif p.kind == "struct":
            params.append(f"const {p.struct.qualified() if p.struct.keyword else 'OpenaclS_' + p.name}& {p.name}")
            args.append(f"const_cast<void*>(static_cast<const volatile void*>(&{p.name}))"
                        if p.struct.keyword is None else
                        f"const_cast<{p.struct.qualified()}*>(&{p.name})")
        else:
            params.append(f"{p.value_type} {p.name}")
            args.append(p.name)
    return params, args


def chevrons_header(kernels):
    lines = [HEADER_NOTE.format(src="the library's kernel sources"),
             "// What k<<<numBlocks, hold, stream>>>(args...) calls once the launch is lowered:",
             "// a host function named as the kernel, which launches it with aclrtlaunch_k.",
             "#ifndef ACLRTLAUNCH_TRIPLE_CHEVRONS_FUNC_H", "#define ACLRTLAUNCH_TRIPLE_CHEVRONS_FUNC_H",
             "", "#include <stdint.h>", ""]
    for k in kernels:
        if not k.template:
            lines.append(f'#include "aclrtlaunch_{k.name}.h"')
    lines.append("")
    for k in kernels:
        if k.template:
            continue
        params, args = wrapper_params(k)
        templ = ["class OpenaclHold"] + [f"class OpenaclS_{p.name}" for p in k.params
                                         if p.kind == "struct" and p.struct.keyword is None]
        body = [f"template <{', '.join(templ)}>",
                f"inline uint32_t {k.name}({', '.join(['uint32_t numBlocks', 'OpenaclHold', 'void* stream'] + params)}) {{",
                f"    return aclrtlaunch_{k.name}({', '.join(['numBlocks', 'stream'] + args)});",
                "}"]
        lines += wrap_namespace(k.namespace, body)
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def member(p, type_text=None):
    t = type_text or p.value_type
    return f"    alignas(4) alignas({t}) {t} {p.name};"


STUB_PRELUDE = r"""
// ---- openacl launch stubs (generated by ascendc_gen.py) ----
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "acl/acl.h"
#include "openacl/kernel.h"
#include "openacl/kernel_binary.h"

// Keeps a variable nothing refers to in the object and through --gc-sections.
#if defined(__has_attribute)
#if __has_attribute(retain)
#define OPENACL_KEEP __attribute__((used, retain))
#endif
#endif
#ifndef OPENACL_KEEP
#define OPENACL_KEEP __attribute__((used))
#endif

namespace {
// Runs one block: the packed arguments are copied out (the block may be unaligned), the block
// index is set for GetBlockIdx() (and the kernel API's core state reset, when the source uses
// kernel_operator.h), and what the kernel throws fails the launch.
// A __cube__ kernel's blocks are cube cores, others vector cores; a mix kernel's block (Mix:
// AIVs per AIC) runs as one AIC and Mix AIVs at once.
template <class Args, bool Cube = false, uint32_t Mix = 0, class Call>
int OpenaclRunBlock(const void* args, uint32_t block, uint32_t blocks, char* error, size_t size,
                    Call call) {
    alignas(Args) unsigned char copy[sizeof(Args)];
    std::memcpy(copy, args, sizeof(Args));
    openacl::kernel::t_block = {block, blocks};
#ifdef OPENACL_ASCENDC_KERNEL_CORE_STATE_H_
    openacl::ascendc::BeginBlock();  // the kernel API's per-core state starts afresh
    if constexpr (Cube) {
        openacl::ascendc::t_core.coreType = openacl::ascendc::CoreType::AIC;
    }
#endif
#ifdef OPENACL_ASCENDC_KERNEL_CROSS_CORE_H_
    if constexpr (Mix != 0) {
        const std::string failure = openacl::ascendc::RunMixGroup<Mix>(
            block, blocks, [&] { call(*std::launder(reinterpret_cast<const Args*>(copy))); });
        if (failure.empty()) return 0;
        std::snprintf(error, size, "%s", failure.c_str());
        return 1;
    }
#endif
    try {
        call(*std::launder(reinterpret_cast<const Args*>(copy)));
#ifdef OPENACL_ASCENDC_KERNEL_CORE_STATE_H_
        openacl::ascendc::EndBlock();  // its global-memory writes, compared with other blocks'
#endif
        return 0;
    } catch (const std::exception& e) {
        std::snprintf(error, size, "%s", e.what());
    } catch (...) {
        std::snprintf(error, size, "the kernel threw an exception");
    }
    return 1;
}
}  // namespace
"""


def cube_flag(kernel):
    return "true" if kernel.cube else "false"


def fatbin_accessor(key):
    """The hidden function through which a fatbin's table source reaches a source's entries."""
    return "openacl_fatbin_kernels_" + re.sub(r"\W", "_", key)


def stub(kernels, key, source, fatbin=False):
    origin = f"Ascend C kernels of {os.path.basename(source)}"
    lines = [STUB_PRELUDE]
    plain = [k for k in kernels if not k.template]
    lines.append("namespace {")
    for k in plain:
        lines.append(f"struct OpenaclArgs_{k.name} {{")
        lines += [member(p) for p in k.params]
        lines.append("};")
        call = ", ".join(f"a.{p.name}" for p in k.params)
        lines += [f"int OpenaclRun_{k.name}(const void* args, uint32_t block, uint32_t blocks, "
                  "char* error, size_t size) {",
                  f"    return OpenaclRunBlock<OpenaclArgs_{k.name}, {cube_flag(k)}, {k.mix}>(args, block, "
                  "blocks, error, "
                  f"size, []([[maybe_unused]] const OpenaclArgs_{k.name}& a) {{ {k.qualified}({call}); }});",
                  "}"]
    if plain:
        lines.append("const openaclKernelEntry kOpenaclKernels[] = {")
        for k in plain:
            lines.append(f'    {{"{k.name}", {len(k.params)}, '
                         f"static_cast<uint32_t>(sizeof(OpenaclArgs_{k.name})), OpenaclRun_{k.name}}},")
        lines += ["};",
                  "const openaclKernelTable kOpenaclKernelTable = {OPENACL_KERNEL_BINARY_MAGIC, "
                  f'OPENACL_KERNEL_BINARY_VERSION, "cpu", {len(plain)}, kOpenaclKernels}};']
    lines.append("}  // namespace")
    lines.append("")
    if plain and not fatbin:
        # aclrtGetFuncBySymbol finds the table through the program's symbol table before the
        # first launch registers it (a fatbin's kernels are found in its loaded binary).
        lines += [f"OPENACL_KEEP static const openaclKernelTableRef "
                  f"openacl_kernel_table_ref_{re.sub(r'[^A-Za-z0-9_]', '_', key)} = "
                  f'{{&kOpenaclKernelTable, "{origin}"}};', ""]
    if fatbin and plain:
        lines += [f'extern "C" __attribute__((visibility("hidden"))) const openaclKernelEntry* '
                  f"{fatbin_accessor(key)}() {{",
                  "    return kOpenaclKernels;", "}", ""]
    for index, k in enumerate(plain):
        blocks, stream = launch_names(k)
        params = ", ".join([f"uint32_t {blocks}", f"aclrtStream {stream}"] +
                           [header_param(p) for p in k.params])
        inits, null_checks = [], []
        for p in k.params:
            if p.kind == "pointer":
                inits.append(f"static_cast<{p.value_type}>({p.name})")
            elif p.kind == "struct":
                qual = p.struct.qualified()
                null_checks.append(p.name)
                inits.append(f"*static_cast<{qual}*>({p.name})" if p.struct.keyword is None
                             else f"*{p.name}")
            else:
                inits.append(p.name)
        lines.append(f'extern "C" uint32_t aclrtlaunch_{k.name}({params}) {{')
        for name in null_checks:
            lines += [f"    if ({name} == nullptr) {{",
                      f'        return static_cast<uint32_t>(openaclLaunchKernelTable("aclrtlaunch_{k.name}", '
                      f'&kOpenaclKernelTable, "{origin}", {index}, {blocks}, {stream}, nullptr, 0, '
                      f'"{name}"));',
                      "    }"]
        lines += [f"    const OpenaclArgs_{k.name} args{{{', '.join(inits)}}};",
                  f'    return static_cast<uint32_t>(openaclLaunchKernelTable("aclrtlaunch_{k.name}", '
                  f'&kOpenaclKernelTable, "{origin}", {index}, {blocks}, {stream}, &args, '
                  "sizeof args, nullptr));",
                  "}", ""]
    for k in kernels:
        if k.template:
            lines += template_wrapper(k, origin, declaration=False)
    return "\n".join(lines) + "\n"


def template_head(k, defaults):
    parts = split_top(k.template)
    out = []
    for part in parts:
        if not defaults:
            for j, t in enumerate(part):
                if t.text == "=":
                    part = part[:j]
                    break
        out.append(join(part))
    return out


def template_args(k):
    """The template arguments naming the kernel's own parameters: T, N, ..."""
    names = []
    for part in split_top(k.template):
        toks = [t for t in part]
        for j, t in enumerate(toks):
            if t.text == "=":
                toks = toks[:j]
                break
        ids = [t.text for t in toks if t.kind == "id"]
        if not ids:
            sys.exit(f"{PROG}: {k.source}: template kernel {k.name}: give every template "
                     "parameter a name")
        pack = any(t.text == "..." for t in toks)
        names.append(ids[-1] + ("..." if pack else ""))
    return names


def template_wrapper(k, origin, declaration):
    """A template kernel's wrapper: declared before the source (so k<T, N><<<...>>>(...)
    finds it), defined after it (where the kernel template is known)."""
    head = template_head(k, defaults=declaration) + ["class OpenaclHold"]
    params, _ = wrapper_params(k)
    sig = (f"uint32_t {k.name}(" +
           ", ".join(["uint32_t numBlocks", "OpenaclHold", "void* stream"] + params) + ")")
    if declaration:
        return wrap_namespace(k.namespace, [f"template <{', '.join(head)}>", sig + ";"])
    targs = ", ".join(template_args(k))
    members = [member(p) for p in k.params]
    inits = []
    for p in k.params:
        if p.kind == "pointer":
            inits.append(f"({p.value_type})(const_cast<void*>({p.name}))")
        else:
            inits.append(p.name)
    call = ", ".join(f"a.{p.name}" for p in k.params)
    body = [f"template <{', '.join(head)}>", sig + " {",
            "    struct Args {"] + ["    " + m for m in members] + [
            "    };",
            "    static const openaclKernelEntry entry = {",
            f'        "{k.name}", {len(k.params)}, static_cast<uint32_t>(sizeof(Args)),',
            "        [](const void* args, uint32_t block, uint32_t blocks, char* error, size_t size) {",
            f"            return OpenaclRunBlock<Args, {cube_flag(k)}, {k.mix}>(args, block, blocks, error, size,",
            "                                         []([[maybe_unused]] const Args& a) {",
            f"                {k.name}<{targs}>({call});",
            "            });",
            "        }};",
            "    static const openaclKernelTable table = {OPENACL_KERNEL_BINARY_MAGIC, "
            'OPENACL_KERNEL_BINARY_VERSION, "cpu", 1, &entry};',
            f"    const Args args{{{', '.join(inits)}}};",
            f'    return static_cast<uint32_t>(openaclLaunchKernelTable("{k.name}<<<>>>", &table, '
            f'"{origin}", 0, numBlocks, stream, &args, sizeof args, nullptr));',
            "}"]
    return wrap_namespace(k.namespace, body)


def rewritten_source(source, text, kernels):
    lines = [HEADER_NOTE.format(src=os.path.basename(source)),
             '#include "aclrtlaunch_triple_chevrons_func.h"']
    for k in kernels:
        if k.template:
            lines += template_wrapper(k, "", declaration=True)
    lines.append(f'#line 1 "{source}"')
    body = rewrite_chevrons(text, source)
    if not body.endswith("\n"):
        body += "\n"
    return "\n".join(lines) + "\n" + body


def fatbin_table(per_source):
    """The source of a fatbin's exported kernel table: every plain kernel of every source, in
    order (aclrtBinaryGetFunctionByEntry's entry is the index)."""
    parts = [(key, sum(1 for k in kernels if not k.template))
             for _, _, key, kernels in per_source]
    parts = [(key, n) for key, n in parts if n]
    total = sum(n for _, n in parts)
    lines = [HEADER_NOTE.format(src="the fatbin's kernel sources"),
             "// The kernel table aclrtBinaryLoadFromFile reads (openacl/kernel_binary.h).",
             '#include "openacl/kernel_binary.h"', ""]
    for key, _ in parts:
        lines.append(f'extern "C" __attribute__((visibility("hidden"))) const openaclKernelEntry* '
                     f"{fatbin_accessor(key)}();")
    lines += ["", "namespace {", f"openaclKernelEntry g_entries[{max(total, 1)}];",
              "// Filled when the object is loaded, before the loader reads the table.",
              "[[maybe_unused]] const bool g_filled = [] {", "    openaclKernelEntry* out = g_entries;"]
    for key, n in parts:
        lines += [f"    for (int i = 0; i < {n}; ++i) *out++ = {fatbin_accessor(key)}()[i];"]
    lines += ["    return true;", "}();", "}  // namespace", "",
              'extern "C" __attribute__((visibility("default"))) const openaclKernelTable',
              f"    openacl_kernel_binary_table = {{OPENACL_KERNEL_BINARY_MAGIC, "
              f'OPENACL_KERNEL_BINARY_VERSION, "cpu", {total}, g_entries}};', ""]
    return "\n".join(lines)


def write_if_changed(path, text):
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include-dir", required=True, help="where the launch headers go")
    ap.add_argument("--auto-gen-dir", required=True, help="where the rewritten sources go")
    ap.add_argument("--source", action="append", nargs=3, metavar=("SOURCE", "PREPROCESSED", "KEY"),
                    required=True, help="a kernel source, its -E output, its output name")
    ap.add_argument("--stamp", help="touched when done")
    ap.add_argument("--fatbin-table", help="for ascendc_fatbin_library: write the source of the "
                    "kernel table the object exports here")
    args = ap.parse_args(argv)
    all_kernels, per_source = [], []
    for source, preprocessed, key in args.source:
        with open(preprocessed, encoding="utf-8", errors="replace") as f:
            kernels, _ = scan(f.read(), source)
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
        per_source.append((source, text, key, kernels))
        all_kernels += kernels
    seen = {}
    for k in all_kernels:
        if not k.template and k.name in seen:
            sys.exit(f"{PROG}: kernel {k.name} is defined in {seen[k.name]} and in {k.source}: "
                     "each kernel of a library needs its own name")
        seen[k.name] = k.source
    if not all_kernels:
        sys.stderr.write(f"{PROG}: warning: no __global__ kernel definition in "
                         + " ".join(s for s, _, _ in args.source) + "\n")
    for k in all_kernels:
        if not k.template:
            write_if_changed(os.path.join(args.include_dir, f"aclrtlaunch_{k.name}.h"),
                             launch_header(k))
    write_if_changed(os.path.join(args.include_dir, "aclrtlaunch_triple_chevrons_func.h"),
                     chevrons_header([k for k in all_kernels]))
    for source, text, key, kernels in per_source:
        out = os.path.join(args.auto_gen_dir, key + ".cpp")
        gen_line = f'#line 1 "{out}"\n'
        write_if_changed(out, rewritten_source(source, text, kernels) + gen_line +
                         stub(kernels, key, source, fatbin=bool(args.fatbin_table)))
    if args.fatbin_table:
        write_if_changed(args.fatbin_table, fatbin_table(per_source))
    if args.stamp:
        with open(args.stamp, "w", encoding="utf-8") as f:
            f.write("\n".join(f"{k.name}" for k in all_kernels) + "\n")


if __name__ == "__main__":
    main()
