# OpenCV modules as imported targets (opencv_core, opencv_dnn, ...). Debian ships OpenCV's CMake
# package only with the all-modules libopencv-dev; the per-module -dev packages openacl installs
# carry headers and libraries alone, so fall back to finding those directly.
find_package(OpenCV QUIET COMPONENTS core dnn imgproc imgcodecs videoio)
if(NOT OpenCV_FOUND)
  find_path(OPENACL_OPENCV_INCLUDE_DIR opencv2/core.hpp PATH_SUFFIXES opencv4 REQUIRED)
  foreach(module core dnn imgproc imgcodecs videoio)
    find_library(OPENACL_OPENCV_${module} opencv_${module} REQUIRED)
    if(NOT TARGET opencv_${module})
      add_library(opencv_${module} SHARED IMPORTED GLOBAL)
      set_target_properties(opencv_${module} PROPERTIES
        IMPORTED_LOCATION ${OPENACL_OPENCV_${module}}
        INTERFACE_INCLUDE_DIRECTORIES ${OPENACL_OPENCV_INCLUDE_DIR})
    endif()
  endforeach()
endif()
