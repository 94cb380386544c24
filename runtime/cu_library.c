/* cu_library.c - driver API: libraries and kernels (cuLibrary*, cuKernel*) and fat binary modules. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cu_int.h"
#include "rt.h"

#define CU_EXPORT __attribute__((visibility("default")))

/* A CUlibrary is a module (rt_module) like a CUmodule, and a CUkernel a kernel (rt_kernel) like
 * a CUfunction: a library's module and a kernel's function are the same handles. As with
 * programs that register their fat binaries, a module made from a fat binary is parsed at its
 * first use (a kernel looked up, a variable), so a program pays only for the modules it uses
 * and a module that cannot load fails where it is used. */

typedef struct {                    /* __fatBinC_Wrapper_t */
    int magic;
    int version;
    const void *data;
    void *filename_or_fatbins;      /* version 2 (-rdc=true): the units' fat binaries */
} fatbinc_wrapper;

/* The CUresult of a module that failed to load (the reason was printed once). */
static CUresult load_result(cudaError_t e)
{
    return e == cudaErrorInvalidPtx ? CUDA_ERROR_INVALID_PTX
           : e == cudaErrorNoKernelImageForDevice ? CUDA_ERROR_NO_BINARY_FOR_GPU
           : e == cudaErrorInvalidKernelImage ? CUDA_ERROR_INVALID_IMAGE
           : cu_result(e);
}

CUresult cu_module_from_fatbin(CUmodule *module, const void *image)
{
    if (!module || !image) return CUDA_ERROR_INVALID_VALUE;
    const void *data = image;
    void *const *prelinked = NULL;
    const fatbinc_wrapper *w = image;
    if ((uint32_t)w->magic == RT_FATBINC_MAGIC) {
        data = w->data;
        if (w->version == 2 && w->filename_or_fatbins)
            prelinked = (void *const *)w->filename_or_fatbins;
    }
    if (!data) return CUDA_ERROR_INVALID_VALUE;
    uint32_t magic;
    memcpy(&magic, data, 4);
    if (magic != RT_FATBIN_MAGIC) {
        if (!memcmp(data, "\177ELF", 4)) {
            rt_warn("a cubin (SASS only) was loaded: ptxdbg runs PTX; rebuild with "
                    "-gencode arch=compute_XX,code=compute_XX to keep it");
            return CUDA_ERROR_INVALID_IMAGE;
        }
        /* PTX text (NVRTC output): parsed now, so that its errors are the load's */
        RT_BEGIN();
        rt_module *mod = rt_module_new_ptx(data, strnlen(data, (size_t)1 << 30), "module data");
        cudaError_t e = mod ? rt_module_load(mod) : cudaErrorMemoryAllocation;
        if (e != cudaSuccess && mod) rt_module_free(mod);
        rt_unlock();
        if (e != cudaSuccess) return load_result(e);
        *module = (CUmodule)(void *)mod;
        return CUDA_SUCCESS;
    }
    RT_BEGIN();
    rt_module *mod = rt_module_new_fatbin(data, (size_t)1 << 40);
    if (mod) mod->prelinked = prelinked;
    rt_unlock();
    if (!mod) return CUDA_ERROR_INVALID_IMAGE;
    *module = (CUmodule)(void *)mod;
    return CUDA_SUCCESS;
}

/* ---- libraries ------------------------------------------------------------------------------ */
CU_EXPORT CUresult cuLibraryLoadData(CUlibrary *library, const void *code, void *jitOptions,
                                     void **jitOptionsValues, unsigned int numJitOptions,
                                     void *libraryOptions, void **libraryOptionValues,
                                     unsigned int numLibraryOptions)
{
    (void)jitOptionsValues, (void)libraryOptionValues;     /* nothing to tune in an emulator */
    if (!library || !code || (numJitOptions && !jitOptions) ||
        (numLibraryOptions && !libraryOptions))
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cu_inited();
    if (r) return r;
    CUmodule m;
    r = cu_module_from_fatbin(&m, code);
    if (!r) *library = (CUlibrary)(void *)m;
    return r;
}

CU_EXPORT CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                         void *jitOptions, void **jitOptionsValues,
                                         unsigned int numJitOptions, void *libraryOptions,
                                         void **libraryOptionValues,
                                         unsigned int numLibraryOptions)
{
    if (!library || !fileName) return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cu_inited();
    if (r) return r;
    char *buf;
    size_t n;
    if ((r = cu_read_file(fileName, &buf, &n))) return r;
    /* the module keeps pointing at a fat binary's bytes: they stay for the process */
    r = n < 4 ? CUDA_ERROR_INVALID_IMAGE
        : cuLibraryLoadData(library, buf, jitOptions, jitOptionsValues, numJitOptions,
                            libraryOptions, libraryOptionValues, numLibraryOptions);
    uint32_t magic = 0;
    if (n >= 4) memcpy(&magic, buf, 4);
    if (r || magic != RT_FATBIN_MAGIC) free(buf);
    return r;
}

CU_EXPORT CUresult cuLibraryUnload(CUlibrary library)
{
    return cuModuleUnload((CUmodule)(void *)library);
}

CU_EXPORT CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library)
{
    CU_CHECK_INIT();
    RT_BEGIN();
    rt_module *m = cu_module_of((CUmodule)(void *)library);
    if (!m) return rt_unlock(), CUDA_ERROR_INVALID_HANDLE;
    if (!pMod) return rt_unlock(), CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_module_load(m);
    rt_unlock();
    if (e != cudaSuccess) return load_result(e);
    *pMod = (CUmodule)(void *)m;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name)
{
    CU_CHECK_INIT();
    RT_BEGIN();
    rt_module *m = cu_module_of((CUmodule)(void *)library);
    if (!m) return rt_unlock(), CUDA_ERROR_INVALID_HANDLE;
    if (!pKernel || !name) return rt_unlock(), CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_module_load(m);
    if (e != cudaSuccess) return rt_unlock(), load_result(e);
    rt_kernel *k = rt_kernel_by_name(m, name);
    e = k ? rt_kernel_ready(k) : cudaErrorInvalidDeviceFunction;
    rt_unlock();
    if (e != cudaSuccess) return CUDA_ERROR_NOT_FOUND;
    *pKernel = (CUkernel)(void *)k;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLibraryGetKernelCount(unsigned int *count, CUlibrary lib)
{
    CU_CHECK_INIT();
    if (!count) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_module *m = cu_module_of((CUmodule)(void *)lib);
    cudaError_t e = m ? rt_module_load(m) : cudaErrorInvalidResourceHandle;
    unsigned n = e == cudaSuccess ? (unsigned)rt_module_entries(m, NULL, 0) : 0;
    rt_unlock();
    if (!m) return CUDA_ERROR_INVALID_HANDLE;
    if (e != cudaSuccess) return load_result(e);
    *count = n;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLibraryEnumerateKernels(CUkernel *kernels, unsigned int numKernels,
                                             CUlibrary lib)
{
    CU_CHECK_INIT();
    if (!kernels && numKernels) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_module *m = cu_module_of((CUmodule)(void *)lib);
    cudaError_t e = m ? rt_module_load(m) : cudaErrorInvalidResourceHandle;
    int n = e == cudaSuccess ? rt_module_entries(m, NULL, 0) : 0;
    const char **names = n ? calloc((size_t)n, sizeof *names) : NULL;
    if (n && !names) e = cudaErrorMemoryAllocation;
    else if (n) rt_module_entries(m, names, n);
    for (int i = 0; i < n && (unsigned)i < numKernels && e == cudaSuccess; i++) {
        rt_kernel *k = rt_kernel_by_name(m, names[i]);
        e = k ? rt_kernel_ready(k) : cudaErrorMemoryAllocation;
        kernels[i] = (CUkernel)(void *)k;
    }
    free(names);
    rt_unlock();
    if (!m) return CUDA_ERROR_INVALID_HANDLE;
    return e == cudaSuccess ? CUDA_SUCCESS : load_result(e);
}

CU_EXPORT CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                      const char *name)
{
    CU_CHECK_INIT();
    return cuModuleGetGlobal_v2(dptr, bytes, (CUmodule)(void *)library, name);
}

/* A __managed__ variable: its address is managed memory the host uses directly. */
CU_EXPORT CUresult cuLibraryGetManaged(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                       const char *name)
{
    CU_CHECK_INIT();
    RT_BEGIN();
    rt_module *m = cu_module_of((CUmodule)(void *)library);
    if (!m) return rt_unlock(), CUDA_ERROR_INVALID_HANDLE;
    if (!name) return rt_unlock(), CUDA_ERROR_INVALID_VALUE;
    cudaError_t e = rt_module_load(m);
    if (e != cudaSuccess) return rt_unlock(), load_result(e);
    rt_var *v = rt_var_by_name(m, name);
    void *dev;
    size_t size;
    e = v && v->managed ? rt_var_addr(v, &dev, &size) : cudaErrorInvalidSymbol;
    rt_unlock();
    if (e != cudaSuccess) return CUDA_ERROR_NOT_FOUND;
    if (dptr) *dptr = (CUdeviceptr)(uintptr_t)dev;
    if (bytes) *bytes = size;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuLibraryGetUnifiedFunction(void **fptr, CUlibrary library, const char *symbol)
{
    (void)library, (void)symbol;
    if (!fptr) return CUDA_ERROR_INVALID_VALUE;
    *fptr = NULL;                   /* unified functions are a Grace-Hopper feature */
    return CUDA_ERROR_NOT_FOUND;
}

/* ---- kernels: a CUkernel is its CUfunction -------------------------------------------------- */
CU_EXPORT CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel)
{
    CU_CHECK_INIT();
    if (!pFunc) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_kernel *k = cu_function_of((CUfunction)(void *)kernel);
    rt_unlock();
    if (!k) return CUDA_ERROR_INVALID_HANDLE;
    *pFunc = (CUfunction)(void *)k;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuKernelGetLibrary(CUlibrary *pLib, CUkernel kernel)
{
    CU_CHECK_INIT();
    if (!pLib) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_kernel *k = cu_function_of((CUfunction)(void *)kernel);
    rt_unlock();
    if (!k) return CUDA_ERROR_INVALID_HANDLE;
    *pLib = (CUlibrary)(void *)k->mod;
    return CUDA_SUCCESS;
}

CU_EXPORT CUresult cuKernelGetName(const char **name, CUkernel hfunc)
{
    return cuFuncGetName(name, (CUfunction)(void *)hfunc);
}

CU_EXPORT CUresult cuKernelGetAttribute(int *pi, int attrib, CUkernel kernel, CUdevice dev)
{
    if (!rt_dev_valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncGetAttribute(pi, attrib, (CUfunction)(void *)kernel);
}

CU_EXPORT CUresult cuKernelSetAttribute(int attrib, int val, CUkernel kernel, CUdevice dev)
{
    if (!rt_dev_valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetAttribute((CUfunction)(void *)kernel, attrib, val);
}

CU_EXPORT CUresult cuKernelSetCacheConfig(CUkernel kernel, int config, CUdevice dev)
{
    if (!rt_dev_valid(dev)) return CUDA_ERROR_INVALID_DEVICE;
    return cuFuncSetCacheConfig((CUfunction)(void *)kernel, config);
}

/* Lazy loading is what every module gets here: parsed at first use. */
CU_EXPORT CUresult cuModuleGetLoadingMode(int *mode)
{
    if (!mode) return CUDA_ERROR_INVALID_VALUE;
    *mode = 2;                      /* CU_MODULE_LAZY_LOADING */
    return CUDA_SUCCESS;
}

/* ---- parameters ------------------------------------------------------------------------------ */
CU_EXPORT CUresult cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t *paramOffset,
                                      size_t *paramSize)
{
    CU_CHECK_INIT();
    RT_BEGIN();
    rt_kernel *k = cu_function_of(func);
    CUresult r = !k ? CUDA_ERROR_INVALID_HANDLE
                 : paramIndex >= (size_t)k->nparams ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
    if (!r) {
        if (paramOffset) *paramOffset = (size_t)k->param_off[paramIndex];
        if (paramSize) *paramSize = (size_t)k->param_size[paramIndex];
    }
    rt_unlock();
    return r;
}

CU_EXPORT CUresult cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t *paramOffset,
                                        size_t *paramSize)
{
    return cuFuncGetParamInfo((CUfunction)(void *)kernel, paramIndex, paramOffset, paramSize);
}

/* Bank size settings are gone from the hardware since sm_50: accepted, as CUDA does. */
CU_EXPORT CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, int config)
{
    CU_CHECK_INIT();
    if (config < 0 || config > 2) return CUDA_ERROR_INVALID_VALUE;
    RT_BEGIN();
    rt_kernel *k = cu_function_of(hfunc);
    rt_unlock();
    return k ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}
