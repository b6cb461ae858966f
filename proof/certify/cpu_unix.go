//go:build unix

package certify

import "syscall"

// processCPU returns this process's CPU seconds so far (user + system,
// every thread), or 0 when it cannot be read.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
