/* A stand-in for Windows 10's bcryptprimitives.dll, for running Fivefold's .exe under
 * Debian's wine 8, which lacks ProcessPrng (Rust's standard library calls it on
 * Windows 10 and later; real Windows has it). Built by scripts/windows.sh --wine and
 * scripts/piskvork.sh with MinGW:
 *   x86_64-w64-mingw32-gcc -O2 -shared -o bcryptprimitives.dll processprng.c -ladvapi32
 * Used by the tests only; it is never shipped. */
#include <windows.h>
#include <ntsecapi.h>

/* ProcessPrng as Windows 10+ exports it, on top of RtlGenRandom. */
__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
