#include <cstring>

#include "bindings.hpp"

#include "optiq/core/error.hpp"

namespace {

// Messages quote user input, which may be cut inside a multi-byte character or not be UTF-8
// at all: decoding the message must never fail, or the error would turn into another one.
void translate_error(const std::exception_ptr& p, void* type) {
  try {
    std::rethrow_exception(p);
  } catch (const optiq::Error& e) {
    const char* what = e.what();
    PyObject* text = PyUnicode_DecodeUTF8(what, static_cast<Py_ssize_t>(std::strlen(what)), "backslashreplace");
    PyErr_SetObject(static_cast<PyObject*>(type), text);
    Py_XDECREF(text);
  }
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "optiq planning core (C++): network, routing, patterns, paths, planners, metrics, plan files";
  // Bad user input surfaces as optiq.Error, a ValueError; front ends turn it into exit status 2.
  nanobind::exception<optiq::Error> error(m, "Error", PyExc_ValueError);
  nanobind::register_exception_translator(translate_error, error.ptr());  // tried before the default one
  optiq::py::bind_options(m);
  optiq::py::bind_topology(m);
  optiq::py::bind_pattern(m);
  optiq::py::bind_plan(m);
  optiq::py::bind_io(m);
}
