package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"runtime/debug"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3".
var version = "dev"

func versionString() string {
	v := version
	if bi, ok := debug.ReadBuildInfo(); ok && v == "dev" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	return fmt.Sprintf("kaeload %s (%s, %s/%s)", v, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

var versionCommand = command{name: "version", summary: "print kaeload's version",
	help: "Prints kaeload's version, the Go version and the platform.",
	setup: func(*flag.FlagSet) body {
		return func(_ context.Context, s stdio, _ []string) error {
			fmt.Fprintln(s.out, versionString())
			return nil
		}
	}}
