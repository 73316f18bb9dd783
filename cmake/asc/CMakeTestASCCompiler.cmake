# The driver is openacl's own script around the host C++ compiler, which CMake tests when the
# project enables CXX; a broken setup shows at the first .asc compile, with the driver's message.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
