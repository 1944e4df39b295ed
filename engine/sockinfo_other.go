//go:build !linux

package engine

// sockInfo reads nothing off Linux: no TCP_INFO.
type sockInfo struct{}

func (si *sockInfo) init() {}

// noteSocket reads nothing off Linux.
func (s *slot) noteSocket() {}
