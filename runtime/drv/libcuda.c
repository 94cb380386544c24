/* libcuda.c - libcuda.so.1: the driver API lives in libcudart.so.13, which this library loads. */

/* The driver API functions (cu*) are defined and exported by libcudart.so.13, so a program
 * that uses both APIs sees one state. This object only carries libcuda.so.1's name and its
 * dependency on libcudart.so.13 (found beside it through the $ORIGIN run path). */
const char ptxdbg_libcuda_note[] = "ptxdbg driver API: see libcudart.so.13";
