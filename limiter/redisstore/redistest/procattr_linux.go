package redistest

import "syscall"

// procAttr ends the server with the test binary, even one killed by a
// test timeout before Stop runs.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
