#!/usr/bin/env python3
"""Generate softgpu's Vulkan tables from the registry (vk.xml).

Outputs (into --out-dir):
  sg_entrypoints.h   prototypes of every implementation (sg_<Command>), the
                     extension enum, and the entrypoint table types
  sg_entrypoints.c   the sorted name table used by the vk_icd* and
                     vkGet*ProcAddr lookups, plus one logging stub per command
                     that softgpu does not implement (yet)
  sg_struct_tables.h/.c
                     for every core-promoted VkPhysicalDevice*Features and
                     *Properties struct, the offset of each member and of the
                     matching member in the Vulkan 1.0-1.3 core blocks, so that
                     *2 queries and vkCreateDevice are data driven
  sg_spirv_tables.h/.c
                     vk.xml's <spirvcapabilities> and <spirvextensions>: which
                     Vulkan version, device extension, feature or property
                     value enables each SPIR-V capability and extension
                     (capability values come from SPIRV-Headers' grammar)

Only the Python standard library is used, so the build needs nothing but
python3, the Vulkan headers package (which installs vk.xml) and SPIRV-Headers.
"""
import argparse
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

CORE_VERSIONS = ["VK_VERSION_1_0", "VK_VERSION_1_1", "VK_VERSION_1_2", "VK_VERSION_1_3"]
GLOBAL_COMMANDS = {
    "vkCreateInstance",
    "vkEnumerateInstanceVersion",
    "vkEnumerateInstanceExtensionProperties",
    "vkEnumerateInstanceLayerProperties",
}
LEVEL_BY_FIRST_PARAM = {
    "VkInstance": "INSTANCE",
    "VkPhysicalDevice": "PHYSICAL_DEVICE",
    "VkDevice": "DEVICE",
    "VkQueue": "DEVICE",
    "VkCommandBuffer": "DEVICE",
}
# Order of preference for the result of a command softgpu does not implement:
# the first one the registry lists as legal for that command wins.
STUB_RESULT_PREFERENCE = [
    "VK_ERROR_FEATURE_NOT_PRESENT",
    "VK_ERROR_INITIALIZATION_FAILED",
    "VK_ERROR_OUT_OF_HOST_MEMORY",
    "VK_ERROR_DEVICE_LOST",
]


def for_vulkan(elem):
    api = elem.get("api")
    return api is None or "vulkan" in api.split(",")


def text_of(elem):
    """The C text of a <param>/<member>/<proto> element."""
    return "".join(elem.itertext()).strip()


class Command:
    def __init__(self, name, ret, params, errorcodes):
        self.name = name
        self.ret = ret
        self.params = params          # list of (c_decl, param_name, type)
        self.errorcodes = errorcodes
        self.level = None
        self.core_minor = None        # 0..3 for core commands
        self.owners = []              # [(extension, dependency-or-None)]
        self.alias_of = None


def parse_commands(root):
    cmds = {}
    aliases = {}
    for c in root.find("commands"):
        if c.tag != "command" or not for_vulkan(c):
            continue
        if c.get("alias"):
            aliases[c.get("name")] = c.get("alias")
            continue
        proto = c.find("proto")
        name = proto.find("name").text
        ret = proto.find("type").text
        params = []
        for p in c.findall("param"):
            if not for_vulkan(p):
                continue
            params.append((text_of(p), p.find("name").text, p.find("type").text))
        errs = [e for e in (c.get("errorcodes") or "").split(",") if e]
        cmds[name] = Command(name, ret, params, errs)
    for alias, target in aliases.items():
        base = cmds[target]
        a = Command(alias, base.ret, base.params, base.errorcodes)
        a.alias_of = target
        cmds[alias] = a
    for cmd in cmds.values():
        if cmd.name in GLOBAL_COMMANDS:
            cmd.level = "GLOBAL"
        else:
            cmd.level = LEVEL_BY_FIRST_PARAM[cmd.params[0][2]]
    return cmds


def parse_features_and_extensions(root, cmds):
    for feat in root.findall("feature"):
        if not for_vulkan(feat) or feat.get("name") not in CORE_VERSIONS:
            continue
        minor = CORE_VERSIONS.index(feat.get("name"))
        for req in feat.findall("require"):
            for c in req.findall("command"):
                cmd = cmds[c.get("name")]
                if cmd.core_minor is None or minor < cmd.core_minor:
                    cmd.core_minor = minor
    exts = []
    for ext in root.find("extensions"):
        supported = (ext.get("supported") or "").split(",")
        # Platform (window-system, provisional) extensions need headers
        # beyond vulkan_core.h and have nothing to offer a compute driver.
        if "vulkan" not in supported or ext.get("platform"):
            continue
        name = ext.get("name")
        exts.append((name, ext.get("type")))
        for req in ext.findall("require"):
            if not for_vulkan(req):
                continue
            # "extension" lists alternatives, any one of which is enough. A
            # dependency on a core version is always met: softgpu is 1.3.
            deps = (req.get("extension") or "").split(",")
            for c in req.findall("command"):
                cmd = cmds[c.get("name")]
                for dep in deps:
                    if (name, dep or None) not in cmd.owners:
                        cmd.owners.append((name, dep or None))
    exts.sort()
    return exts


def ext_enum(name):
    return "SG_EXT_" + name[3:]


def impl_name(cmd):
    return "sg_" + (cmd.alias_of or cmd.name)[2:]


def stub_result(cmd):
    for r in STUB_RESULT_PREFERENCE:
        if r in cmd.errorcodes:
            return r
    if cmd.errorcodes:
        return cmd.errorcodes[0]
    return "VK_ERROR_UNKNOWN"


def signature(cmd, fname):
    params = ", ".join(p[0] for p in cmd.params) or "void"
    return "%s VKAPI_CALL %s(%s)" % (cmd.ret, fname, params)


def gen_entrypoints(cmds, exts, out):
    # Implementations and stubs exist once per canonical (non-alias) command
    # that the loader can reach: core, or owned by some extension.
    reachable = [c for c in cmds.values() if c.core_minor is not None or c.owners]
    canonical = sorted({c.alias_of or c.name for c in reachable})
    canon = [cmds[n] for n in canonical]
    ext_index = {n: i for i, (n, _) in enumerate(exts)}

    h = []
    h.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    h.append("#ifndef SG_ENTRYPOINTS_H\n#define SG_ENTRYPOINTS_H\n")
    h.append("#include <stdbool.h>\n#include <stdint.h>\n#include <vulkan/vulkan_core.h>\n")
    h.append("/* Every extension of the registry, in name order. */")
    h.append("enum sg_ext {")
    for n, _ in exts:
        h.append("   %s," % ext_enum(n))
    h.append("   SG_EXT_COUNT\n};\n")
    h.append("#define SG_EXT_WORDS ((SG_EXT_COUNT + 63) / 64)")
    h.append("struct sg_ext_set { uint64_t bits[SG_EXT_WORDS]; };\n")
    h.append("static inline bool sg_ext_set_has(const struct sg_ext_set *s, enum sg_ext e)")
    h.append("{\n   return (s->bits[e / 64] >> (e % 64)) & 1;\n}\n")
    h.append("static inline void sg_ext_set_add(struct sg_ext_set *s, enum sg_ext e)")
    h.append("{\n   s->bits[e / 64] |= UINT64_C(1) << (e % 64);\n}\n")
    h.append("extern const char *const sg_ext_names[SG_EXT_COUNT];")
    h.append("/* True for instance extensions, false for device extensions. */")
    h.append("extern const bool sg_ext_is_instance[SG_EXT_COUNT];\n")
    h.append("/* Looks an extension up by name; returns SG_EXT_COUNT if unknown. */")
    h.append("enum sg_ext sg_ext_from_name(const char *name);\n")
    h.append("enum sg_cmd_level {\n   SG_CMD_GLOBAL,\n   SG_CMD_INSTANCE,\n"
             "   SG_CMD_PHYSICAL_DEVICE,\n   SG_CMD_DEVICE,\n};\n")
    h.append("#define SG_CMD_NOT_CORE 0xff")
    h.append("#define SG_CMD_MAX_OWNERS 8\n")
    h.append("/* One entry per command name (aliases included), sorted by name. */")
    h.append("struct sg_entrypoint {")
    h.append("   const char *name;")
    h.append("   PFN_vkVoidFunction impl;   /* NULL where softgpu has none */")
    h.append("   PFN_vkVoidFunction stub;   /* logs once; NULL for extension-only commands */")
    h.append("   uint8_t level;             /* enum sg_cmd_level */")
    h.append("   uint8_t core_minor;        /* 0..3: Vulkan 1.x core; SG_CMD_NOT_CORE */")
    h.append("   uint8_t owner_count;")
    h.append("   /* Extensions that provide this name; dep is a second extension that")
    h.append("    * must also be enabled, or SG_EXT_COUNT. */")
    h.append("   struct { uint16_t ext, dep; } owners[SG_CMD_MAX_OWNERS];")
    h.append("};\n")
    h.append("extern const struct sg_entrypoint sg_entrypoints[];")
    h.append("extern const uint32_t sg_entrypoint_count;\n")
    h.append("const struct sg_entrypoint *sg_entrypoint_find(const char *name);\n")
    h.append("/* Implementations. The ones softgpu does not define stay undefined, and")
    h.append(" * the table falls back to a stub that logs once. */")
    for c in canon:
        h.append("VKAPI_ATTR " + signature(c, impl_name(c)) + ";")
    h.append("\n#endif")

    s = []
    s.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    s.append("#include <stdatomic.h>\n#include <stdlib.h>\n#include <string.h>\n")
    s.append('#include "sg_entrypoints.h"\n#include "sg_log.h"\n')
    s.append("const char *const sg_ext_names[SG_EXT_COUNT] = {")
    for n, _ in exts:
        s.append('   "%s",' % n)
    s.append("};\n")
    s.append("const bool sg_ext_is_instance[SG_EXT_COUNT] = {")
    for n, t in exts:
        s.append("   %s, /* %s */" % ("true" if t == "instance" else "false", n))
    s.append("};\n")
    s.append("static int cmp_ext(const void *key, const void *elem)")
    s.append("{\n   return strcmp(key, *(const char *const *)elem);\n}\n")
    s.append("enum sg_ext sg_ext_from_name(const char *name)\n{")
    s.append("   const char *const *e = bsearch(name, sg_ext_names, SG_EXT_COUNT,")
    s.append("                                  sizeof(sg_ext_names[0]), cmp_ext);")
    s.append("   return e ? (enum sg_ext)(e - sg_ext_names) : SG_EXT_COUNT;\n}\n")
    # Weak references: an implementation that softgpu does not define
    # resolves to NULL at link time.
    s.append("/* Weak references: undefined implementations resolve to NULL. */")
    for c in canon:
        s.append("#pragma weak %s" % impl_name(c))
    s.append("")
    s.append("/* Stubs for core commands softgpu does not implement: log once, then")
    s.append(" * return the nearest result the specification allows for that command.")
    s.append(" * Extension commands get no stub: an extension is advertised only once")
    s.append(" * all its commands are implemented. */")
    for c in canon:
        if c.core_minor is None:
            continue
        fname = "stub_" + c.name[2:]
        s.append("static VKAPI_ATTR " + signature(c, fname))
        s.append("{")
        for p in c.params:
            s.append("   (void)%s;" % p[1])
        s.append("   static atomic_flag logged = ATOMIC_FLAG_INIT;")
        if c.ret == "VkResult":
            r = stub_result(c)
            s.append("   if (!atomic_flag_test_and_set(&logged))")
            s.append('      SG_LOG(SG_LOG_WARN, SG_AREA_API, "%s is not supported by softgpu yet; returning %s", "%s");'
                     % ("%s", r, c.name))
            s.append("   return %s;" % r)
        else:
            s.append("   if (!atomic_flag_test_and_set(&logged))")
            s.append('      SG_LOG(SG_LOG_WARN, SG_AREA_API, "%s is not supported by softgpu yet; the call does nothing", "%s");'
                     % ("%s", c.name))
            if c.ret != "void":
                s.append("   return (%s)0;" % c.ret)
        s.append("}\n")
    s.append("const struct sg_entrypoint sg_entrypoints[] = {")
    names = sorted(c.name for c in reachable)
    for n in names:
        c = cmds[n]
        base = cmds[c.alias_of] if c.alias_of else c
        impl = impl_name(c)
        stub = "stub_" + base.name[2:] if base.core_minor is not None else "NULL"
        owners = c.owners
        if len(owners) > 8:
            sys.exit("too many owners for %s" % n)
        own = ", ".join("{%s, %s}" % (ext_enum(e), ext_enum(d) if d else "SG_EXT_COUNT")
                        for e, d in owners)
        core = str(c.core_minor) if c.core_minor is not None else "SG_CMD_NOT_CORE"
        s.append('   {"%s", (PFN_vkVoidFunction)%s, (PFN_vkVoidFunction)%s,' % (n, impl, stub))
        s.append("    SG_CMD_%s, %s, %d, {%s}}," % (c.level, core, len(owners), own or "{0, 0}"))
    s.append("};\n")
    s.append("const uint32_t sg_entrypoint_count = sizeof(sg_entrypoints) / sizeof(sg_entrypoints[0]);\n")
    s.append("static int cmp_entry(const void *key, const void *elem)")
    s.append("{\n   return strcmp(key, ((const struct sg_entrypoint *)elem)->name);\n}\n")
    s.append("const struct sg_entrypoint *sg_entrypoint_find(const char *name)\n{")
    s.append("   return bsearch(name, sg_entrypoints, sg_entrypoint_count,")
    s.append("                  sizeof(sg_entrypoints[0]), cmp_entry);\n}")
    # ext_index is kept for a consistency check only.
    assert len(ext_index) == len(exts)
    write(out, "sg_entrypoints.h", h)
    write(out, "sg_entrypoints.c", s)


class Struct:
    def __init__(self, name, stype, members, extends):
        self.name = name
        self.stype = stype
        self.members = members        # [(name, type, is_array)]
        self.extends = extends


# Feature structs of device extensions softgpu offers that no core version
# promoted, and the field of struct sg_core_features that holds each.
EXTENSION_FEATURE_BLOCKS = [
    ("VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR", "wmel"),
    ("VkPhysicalDeviceShaderClockFeaturesKHR", "clock"),
    ("VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", "atomic_float"),
]


def parse_structs(root):
    structs = {}
    for t in root.find("types"):
        if t.get("category") != "struct" or t.get("alias") or not for_vulkan(t):
            continue
        members = []
        stype = None
        for m in t.findall("member"):
            if not for_vulkan(m):
                continue
            mname = m.find("name").text
            if mname == "sType":
                stype = m.get("values")
                continue
            if mname == "pNext":
                continue
            members.append((mname, m.find("type").text, "[" in text_of(m)))
        extends = (t.get("structextends") or "").split(",")
        structs[t.get("name")] = Struct(t.get("name"), stype, members, extends)
    return structs


def core_struct_names(root):
    """Struct names required by the core versions, with their minor version."""
    out = {}
    for feat in root.findall("feature"):
        if not for_vulkan(feat) or feat.get("name") not in CORE_VERSIONS:
            continue
        minor = CORE_VERSIONS.index(feat.get("name"))
        for req in feat.findall("require"):
            for t in req.findall("type"):
                out.setdefault(t.get("name"), minor)
    return out


def gen_struct_tables(root, out):
    structs = parse_structs(root)
    core = core_struct_names(root)
    blocks_f = {1: "VkPhysicalDeviceVulkan11Features", 2: "VkPhysicalDeviceVulkan12Features",
                3: "VkPhysicalDeviceVulkan13Features"}
    blocks_p = {1: "VkPhysicalDeviceVulkan11Properties", 2: "VkPhysicalDeviceVulkan12Properties",
                3: "VkPhysicalDeviceVulkan13Properties"}

    def find_member(block_name, member):
        names = [m[0] for m in structs[block_name].members]
        if member in names:
            return member
        # VkPhysicalDeviceSubgroupProperties names its members without the
        # "subgroup" prefix that VkPhysicalDeviceVulkan11Properties uses.
        prefixed = "subgroup" + member[0].upper() + member[1:]
        if prefixed in names:
            return prefixed
        return None

    def table(kind, base, blocks):
        entries = []
        for name, minor in sorted(core.items()):
            st = structs.get(name)
            if st is None or base not in st.extends:
                continue
            block_field = None
            if name in blocks.values():
                minor_of = [k for k, v in blocks.items() if v == name][0]
                mapping = [(m[0], "v1%d.%s" % (minor_of, m[0])) for m in st.members]
            else:
                mapping = []
                for m in st.members:
                    found = None
                    for k in (minor, 1, 2, 3):
                        if k in blocks:
                            fm = find_member(blocks[k], m[0])
                            if fm:
                                found = "v1%d.%s" % (k, fm)
                                break
                    if not found:
                        sys.exit("%s.%s has no Vulkan 1.x core counterpart" % (name, m[0]))
                    mapping.append((m[0], found))
            entries.append((st, mapping))
        return entries

    feats = table("features", "VkPhysicalDeviceFeatures2", blocks_f)
    # Feature structs of device extensions that no core version promoted:
    # each is a block of its own after the core ones.
    for name, field in EXTENSION_FEATURE_BLOCKS:
        st = structs[name]
        feats.append((st, [(m[0], "%s.%s" % (field, m[0])) for m in st.members]))
    props = table("properties", "VkPhysicalDeviceProperties2", blocks_p)
    # (struct, member) -> the member's path in the core blocks, for the
    # SPIR-V tables, which name features and properties by struct.
    core_paths = {}
    for m in structs["VkPhysicalDeviceFeatures"].members:
        core_paths[("VkPhysicalDeviceFeatures", m[0])] = ("features", "v10." + m[0])
    for kind, entries in (("features", feats), ("properties", props)):
        for st, mapping in entries:
            for m, target in mapping:
                core_paths[(st.name, m)] = (kind, target)

    h = []
    h.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    h.append("#ifndef SG_STRUCT_TABLES_H\n#define SG_STRUCT_TABLES_H\n")
    h.append("#include <stdint.h>\n#include <vulkan/vulkan_core.h>\n")
    h.append("/* All core features of Vulkan 1.0-1.3, one block per version. Every")
    h.append(" * promoted feature struct maps onto these blocks member by member. */")
    h.append("struct sg_core_features {")
    h.append("   VkPhysicalDeviceFeatures v10;")
    for k in (1, 2, 3):
        h.append("   %s v1%d;" % (blocks_f[k], k))
    h.append("   /* Features of device extensions not promoted to core. */")
    for name, field in EXTENSION_FEATURE_BLOCKS:
        h.append("   %s %s;" % (name, field))
    h.append("};\n")
    h.append("/* All core properties of Vulkan 1.0-1.3, likewise. */")
    h.append("struct sg_core_properties {")
    h.append("   VkPhysicalDeviceProperties v10;")
    for k in (1, 2, 3):
        h.append("   %s v1%d;" % (blocks_p[k], k))
    h.append("};\n")
    h.append("struct sg_struct_member {")
    h.append("   const char *name;")
    h.append("   uint16_t offset;        /* in the extension struct */")
    h.append("   uint16_t core_offset;   /* in struct sg_core_features / _properties */")
    h.append("   uint16_t size;")
    h.append("};\n")
    h.append("struct sg_struct_info {")
    h.append("   VkStructureType stype;")
    h.append("   const char *name;")
    h.append("   uint32_t member_count;")
    h.append("   const struct sg_struct_member *members;")
    h.append("};\n")
    h.append("/* Feature structs that extend VkPhysicalDeviceFeatures2 and")
    h.append(" * VkDeviceCreateInfo, VkPhysicalDeviceFeatures2 itself included. */")
    h.append("extern const struct sg_struct_info sg_feature_structs[];")
    h.append("extern const uint32_t sg_feature_struct_count;")
    h.append("/* Property structs that extend VkPhysicalDeviceProperties2. */")
    h.append("extern const struct sg_struct_info sg_property_structs[];")
    h.append("extern const uint32_t sg_property_struct_count;\n")
    h.append("const struct sg_struct_info *sg_struct_info_find(const struct sg_struct_info *table,")
    h.append("                                                 uint32_t count, VkStructureType stype);")
    h.append("\n#endif")

    s = []
    s.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    s.append("#include <stddef.h>\n#include \"sg_struct_tables.h\"\n")
    s.append("#define MEMBER_SIZE(T, m) sizeof(((T *)0)->m)\n")

    def emit(entries, core_t, first, kind):
        infos = []
        # VkPhysicalDeviceFeatures2 / Properties2 carry the whole 1.0 block.
        # Features are listed one by one, so that a refusal can name the
        # feature; properties are copied whole.
        st, mem = first
        s.append("static const struct sg_struct_member %s_members_%s[] = {" % (kind, st))
        if kind == "feature":
            block = structs["VkPhysicalDeviceFeatures"].members
            for m in block:
                s.append("   {\"%s\", offsetof(%s, %s.%s), offsetof(%s, v10.%s), sizeof(VkBool32)}," %
                         (m[0], st, mem, m[0], core_t, m[0]))
            n = len(block)
        else:
            s.append("   {\"%s\", offsetof(%s, %s), offsetof(%s, v10), sizeof(%s)}," %
                     (mem, st, mem, core_t, "((%s *)0)->%s" % (st, mem)))
            n = 1
        s.append("};")
        infos.append((st, structs[st].stype, n))
        for st, mapping in entries:
            s.append("static const struct sg_struct_member %s_members_%s[] = {" % (kind, st.name))
            for m, target in mapping:
                s.append("   {\"%s\", offsetof(%s, %s), offsetof(%s, %s), MEMBER_SIZE(%s, %s)}," %
                         (m, st.name, m, core_t, target, st.name, m))
            s.append("};")
            infos.append((st.name, st.stype, len(mapping)))
        s.append("")
        s.append("const struct sg_struct_info sg_%s_structs[] = {" % kind)
        for name, stype, n in infos:
            s.append("   {%s, \"%s\", %d, %s_members_%s}," % (stype, name, n, kind, name))
        s.append("};")
        s.append("const uint32_t sg_%s_struct_count = %d;\n" % (kind, len(infos)))

    emit(feats, "struct sg_core_features", ("VkPhysicalDeviceFeatures2", "features"), "feature")
    emit(props, "struct sg_core_properties", ("VkPhysicalDeviceProperties2", "properties"), "property")
    s.append("const struct sg_struct_info *sg_struct_info_find(const struct sg_struct_info *table,")
    s.append("                                                 uint32_t count, VkStructureType stype)\n{")
    s.append("   for (uint32_t i = 0; i < count; i++) {")
    s.append("      if (table[i].stype == stype)")
    s.append("         return &table[i];")
    s.append("   }")
    s.append("   return NULL;\n}")
    write(out, "sg_struct_tables.h", h)
    write(out, "sg_struct_tables.c", s)
    return core_paths


VERSION_RE = re.compile(r"^VK_(?:API_)?VERSION_(\d+)_(\d+)$")


def version_of(name):
    """VK_VERSION_1_2 and VK_API_VERSION_1_2 (vk.xml uses both) -> (1, 2)."""
    m = VERSION_RE.match(name)
    return (int(m.group(1)), int(m.group(2))) if m else None


def spirv_capability_values(grammar_path):
    """SPIR-V capability names (aliases included) -> enumerant values."""
    with open(grammar_path) as f:
        grammar = json.load(f)
    values = {}
    for kind in grammar["operand_kinds"]:
        if kind["kind"] != "Capability":
            continue
        for e in kind["enumerants"]:
            values[e["enumerant"]] = e["value"]
            for alias in e.get("aliases", []):
                values[alias] = e["value"]
    return values


def gen_spirv_tables(root, grammar_path, exts, core_paths, out):
    """Which SPIR-V capabilities and extensions each Vulkan version, device
    extension, feature and property value enables (vk.xml's
    <spirvcapabilities> and <spirvextensions>)."""
    cap_values = spirv_capability_values(grammar_path)
    known_exts = {n for n, _ in exts}

    def ext_ref(name):
        return ext_enum(name) if name in known_exts else "SG_EXT_COUNT"

    def requirement(name):
        v = version_of(name)
        if v:
            return "{VK_API_VERSION_%d_%d, SG_EXT_COUNT}" % v
        return "{0, %s}" % ext_ref(name)

    def rules(section, tag, is_capability):
        out_rules = []
        for elem in root.find(section).findall(tag):
            name = elem.get("name")
            if is_capability and name not in cap_values:
                # Not in the SPIR-V grammar softgpu is built with: no module
                # the compiler accepts can declare it.
                continue
            enables, said = [], []
            for en in elem.findall("enable"):
                reqs = [r for r in (en.get("requires") or "").split(",") if r]
                if len(reqs) > 4:
                    sys.exit("%s: more than 4 requirements" % name)
                req_c = "%d, {%s}" % (len(reqs), ", ".join(requirement(r) for r in reqs) or "{0, 0}")
                if en.get("version"):
                    major, minor = version_of(en.get("version"))
                    enables.append("{SG_SPIRV_BY_VERSION, VK_API_VERSION_%d_%d, SG_EXT_COUNT, "
                                   "NULL, NULL, -1, 0, 0, {{0, 0}}}" % (major, minor))
                    said.append("Vulkan %d.%d" % (major, minor))
                elif en.get("extension"):
                    e = en.get("extension")
                    enables.append("{SG_SPIRV_BY_EXTENSION, 0, %s, NULL, NULL, -1, 0, 0, {{0, 0}}}"
                                   % ext_ref(e))
                    said.append(e)
                elif en.get("struct"):
                    st, member = en.get("struct"), en.get("feature")
                    kind, path = core_paths.get((st, member), ("features", None))
                    off = ("(int32_t)offsetof(struct sg_core_features, %s)" % path
                           if path and kind == "features" else "-1")
                    enables.append('{SG_SPIRV_BY_FEATURE, 0, SG_EXT_COUNT, "%s", "%s", %s, '
                                   'VK_TRUE, %s}' % (st, member, off, req_c))
                    said.append("%s.%s" % (st, member))
                elif en.get("property"):
                    st, member, value = en.get("property"), en.get("member"), en.get("value")
                    kind, path = core_paths.get((st, member), ("properties", None))
                    off = ("(int32_t)offsetof(struct sg_core_properties, %s)" % path
                           if path and kind == "properties" else "-1")
                    enables.append('{SG_SPIRV_BY_PROPERTY, 0, SG_EXT_COUNT, "%s", "%s", %s, '
                                   '(uint32_t)%s, %s}' % (st, member, off, value, req_c))
                    said.append("%s.%s %s %s" % (st, member,
                                                 "==" if value == "VK_TRUE" else "has", value))
                else:
                    sys.exit("%s: an <enable> of an unknown kind" % name)
            out_rules.append((name, cap_values.get(name, 0), " or ".join(said), enables))
        return out_rules

    caps = rules("spirvcapabilities", "spirvcapability", True)
    spv_exts = rules("spirvextensions", "spirvextension", False)

    h = []
    h.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    h.append("#ifndef SG_SPIRV_TABLES_H\n#define SG_SPIRV_TABLES_H\n")
    h.append("#include <stdint.h>\n#include <vulkan/vulkan_core.h>\n")
    h.append('#include "sg_entrypoints.h"\n#include "sg_struct_tables.h"\n')
    h.append("/* What one <enable> of vk.xml's <spirvcapabilities> or <spirvextensions>")
    h.append(" * asks for: a Vulkan version, a device extension, a feature that is")
    h.append(" * enabled, or a property that has the given bits. */")
    h.append("enum sg_spirv_by {\n   SG_SPIRV_BY_VERSION,\n   SG_SPIRV_BY_EXTENSION,\n"
             "   SG_SPIRV_BY_FEATURE,\n   SG_SPIRV_BY_PROPERTY,\n};\n")
    h.append("/* A version (VK_API_VERSION_1_x; ext is SG_EXT_COUNT) or an extension. */")
    h.append("struct sg_spirv_requirement {\n   uint32_t version;\n   uint16_t ext;\n};\n")
    h.append("struct sg_spirv_enable {")
    h.append("   uint8_t by;                  /* enum sg_spirv_by */")
    h.append("   uint32_t version;            /* BY_VERSION: VK_API_VERSION_1_x */")
    h.append("   uint16_t ext;                /* BY_EXTENSION: enum sg_ext; SG_EXT_COUNT: not")
    h.append("                                 * an extension softgpu knows */")
    h.append("   const char *struct_name;     /* BY_FEATURE, BY_PROPERTY */")
    h.append("   const char *member;")
    h.append("   /* Offset of the member in struct sg_core_features (BY_FEATURE) or")
    h.append("    * struct sg_core_properties (BY_PROPERTY); -1 when the struct has no")
    h.append("    * core counterpart, i.e. softgpu never has the feature. */")
    h.append("   int32_t core_offset;")
    h.append("   uint32_t value;              /* BY_PROPERTY: bits the member must have */")
    h.append("   /* BY_FEATURE, BY_PROPERTY: the struct exists when any one of these")
    h.append("    * is met (vk.xml's requires=); none means always. */")
    h.append("   uint8_t requirement_count;")
    h.append("   struct sg_spirv_requirement requirements[4];")
    h.append("};\n")
    h.append("/* A SPIR-V capability (or extension) and everything that enables it; one")
    h.append(" * enable met is enough. */")
    h.append("struct sg_spirv_rule {")
    h.append("   const char *name;            /* \"ShaderNonUniform\", \"SPV_KHR_16bit_storage\" */")
    h.append("   uint32_t capability;         /* its SpvCapability value (capabilities only) */")
    h.append("   const char *enabled_by;      /* the enables, in words, for messages */")
    h.append("   uint32_t enable_count;")
    h.append("   const struct sg_spirv_enable *enables;")
    h.append("};\n")
    h.append("#define SG_SPIRV_CAPABILITY_COUNT %du" % len(caps))
    h.append("#define SG_SPIRV_EXTENSION_COUNT %du" % len(spv_exts))
    h.append("extern const struct sg_spirv_rule sg_spirv_capabilities[SG_SPIRV_CAPABILITY_COUNT];")
    h.append("extern const struct sg_spirv_rule sg_spirv_extensions[SG_SPIRV_EXTENSION_COUNT];")
    h.append("\n#endif")

    s = []
    s.append("/* Generated by icd/gen_vk_tables.py from vk.xml. Do not edit. */")
    s.append("#include <stddef.h>\n#include \"sg_spirv_tables.h\"\n")

    def emit(array, prefix, table):
        for i, (name, _, _, enables) in enumerate(table):
            s.append("static const struct sg_spirv_enable %s_%d[] = { /* %s */" % (prefix, i, name))
            for e in enables:
                s.append("   %s," % e)
            s.append("};")
        s.append("const struct sg_spirv_rule %s[] = {" % array)
        for i, (name, value, said, enables) in enumerate(table):
            s.append('   {"%s", %du, "%s", %d, %s_%d},' % (name, value, said, len(enables), prefix, i))
        s.append("};\n")

    emit("sg_spirv_capabilities", "capability", caps)
    emit("sg_spirv_extensions", "extension", spv_exts)
    write(out, "sg_spirv_tables.h", h)
    write(out, "sg_spirv_tables.c", s)


def write(out_dir, name, lines):
    path = os.path.join(out_dir, name)
    text = "\n".join(lines) + "\n"
    # Rewrite only on change, so that a re-run does not trigger a rebuild.
    if os.path.exists(path):
        with open(path) as f:
            if f.read() == text:
                return
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--xml", required=True)
    ap.add_argument("--spirv-grammar", required=True,
                    help="spirv.core.grammar.json of SPIRV-Headers (capability values)")
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    root = ET.parse(args.xml).getroot()
    cmds = parse_commands(root)
    exts = parse_features_and_extensions(root, cmds)
    os.makedirs(args.out_dir, exist_ok=True)
    gen_entrypoints(cmds, exts, args.out_dir)
    core_paths = gen_struct_tables(root, args.out_dir)
    gen_spirv_tables(root, args.spirv_grammar, exts, core_paths, args.out_dir)


if __name__ == "__main__":
    main()
