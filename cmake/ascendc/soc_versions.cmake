# The chips SOC_VERSION may name (matched case-insensitively) and what each means for a kernel
# build: CANN's build mode and the values of __CCE_AICORE__ and __NPU_ARCH__ its kernels test.
# Sets, for `soc` (lower case): <prefix>_BUILD_MODE, <prefix>_CCE_AICORE, <prefix>_NPU_ARCH (the
# last two empty for chip lines whose numbers are not published), or nothing if it is unknown.
include_guard(GLOBAL)

set(OPENACL_ASCENDC_KNOWN_SOCS
    "Ascend910B1, Ascend910B2, Ascend910B3, Ascend910B4, Ascend910B2C, Ascend910B4-1, "
    "Ascend910_93xx, Ascend310P1, Ascend310P3, Ascend310P5, Ascend310P7 (and their virtual "
    "variants, e.g. Ascend310P3vir01), Ascend310B1, Ascend310B2, Ascend310B3, Ascend310B4, "
    "Ascend910, Ascend910A, Ascend910ProA, Ascend910ProB, Ascend910PremiumA, Ascend950PR_xxxx, "
    "Ascend950DT_xxxx, KirinX90, Kirin9030, MC62")
string(CONCAT OPENACL_ASCENDC_KNOWN_SOCS ${OPENACL_ASCENDC_KNOWN_SOCS})

function(openacl_ascendc_soc soc prefix)
  set(mode "")
  set(aicore "")
  set(arch "")
  if(soc MATCHES "^ascend910b[1-4]$" OR soc MATCHES "^ascend910b2c$" OR soc STREQUAL "ascend910b4-1"
     OR soc MATCHES "^ascend910_93[0-9][0-9]$")
    set(mode c220)
    set(aicore 220)
    set(arch 2201)
  elseif(soc MATCHES "^ascend310p[1357](vir[0-9]+)?$")
    set(mode m200)
    set(aicore 200)
    set(arch 2002)
  elseif(soc MATCHES "^ascend310b[1-4]$")
    set(mode m300)
    set(aicore 300)
    set(arch 3002)
  elseif(soc MATCHES "^ascend910(a|proa|prob|premiuma)?$")
    set(mode c100)
    set(aicore 100)
    set(arch 1001)
  elseif(soc MATCHES "^ascend950(pr|dt)_[0-9a-z]+$")
    set(mode c310)
    set(aicore 310)
    set(arch 3510)
  elseif(soc STREQUAL "kirinx90")
    set(mode l300)
  elseif(soc STREQUAL "kirin9030")
    set(mode l311)
  elseif(soc STREQUAL "mc62")
    set(mode m510)
  endif()
  set(${prefix}_BUILD_MODE "${mode}" PARENT_SCOPE)
  set(${prefix}_CCE_AICORE "${aicore}" PARENT_SCOPE)
  set(${prefix}_NPU_ARCH "${arch}" PARENT_SCOPE)
endfunction()
