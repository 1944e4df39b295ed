package results

import (
	"regexp"
	"slices"
	"strings"
)

// Bounds of a stored server profile, per repetition; ProfileDepth is the frames kept from the leaf.
const (
	ProfileFunctions = 30
	ProfileStacks    = 400
	ProfileDepth     = 48
	ProfileLibraries = 40
	ProfilePackages  = 200
)

// The entries that count what is beyond the bounds, so counts add up to Samples.
const (
	OtherStacks    = "[other stacks]"
	OtherLibraries = "[other libraries]"
	OtherPackages  = "[other packages]"
)

// DefaultCryptoLibraries is what counts as crypto unless the scenario says.
var DefaultCryptoLibraries = []string{"libcrypto", "libssl", "libgmssl", "kae", "libkae", "libwd*", "libhisi*", "qatengine", "qatprovider", "libqat*", "libusdm*", "[hisi_", "[qat", "[intel_qat]", "crypto/...", "golang.org/x/crypto/..."}

// ProfileSpec is how the run profiled the server (server.profile).
type ProfileSpec struct {
	Rate   int      `json:"rate_hz"` // perf samples per CPU-second
	Crypto []string `json:"crypto_libraries"`
}

// IsCrypto reports whether a library ("libcrypto.so.3") is crypto: an entry names it less ".so"
// and version, or a prefix if it ends in "*" or leaves a "[" open.
func (s *ProfileSpec) IsCrypto(library string) bool {
	l := strings.ToLower(library)
	if i := strings.Index(l, ".so"); i > 0 && (len(l) == i+3 || l[i+3] == '.') {
		l = l[:i]
	}
	return slices.ContainsFunc(s.Crypto, func(e string) bool {
		switch e = strings.ToLower(e); {
		case strings.Contains(e, "/") || e == "":
			return false
		case strings.HasSuffix(e, "*") || strings.HasPrefix(e, "[") && !strings.HasSuffix(e, "]"):
			return strings.HasPrefix(l, strings.TrimSuffix(e, "*"))
		}
		return l == e
	})
}

// IsCryptoPackage reports whether a Go package is crypto: an entry with a "/" is a path, "P/..." a tree.
func (s *ProfileSpec) IsCryptoPackage(pkg string) bool {
	pkg = strings.TrimPrefix(pkg, "vendor/")
	return slices.ContainsFunc(s.Crypto, func(e string) bool {
		tree, ok := strings.CutSuffix(e, "/...")
		return strings.Contains(e, "/") && (pkg == e || ok && (pkg == tree || strings.HasPrefix(pkg, tree+"/")))
	})
}

// CryptoSamples counts p's samples in crypto libraries or crypto packages.
func (s *ProfileSpec) CryptoSamples(p *ServerProfile) uint64 {
	var n uint64
	for _, l := range p.Libraries {
		if s.IsCrypto(l.Name) {
			n += l.Samples
		}
	}
	for _, g := range p.Packages {
		if !s.IsCrypto(g.Library) && s.IsCryptoPackage(g.Name) {
			n += g.Samples
		}
	}
	return n
}

// ServerProfile is perf's samples of the server over one window by library, Go package, own
// function and folded stack, most first; without a profile, Reason says why. Steal, time the
// hypervisor took while the server held a CPU, is in perf's cpu-clock but not in CPUSeconds.
type ServerProfile struct {
	Reason     string            `json:"reason,omitempty"`
	Host       string            `json:"host,omitempty"` // "local" or the ssh host
	PIDs       []int             `json:"pids,omitempty"`
	Rate       int               `json:"rate_hz,omitempty"`
	Seconds    float64           `json:"seconds,omitempty"` // sampling enabled
	Samples    uint64            `json:"samples"`
	CPUSeconds float64           `json:"cpu_seconds,omitempty"`   // the kernel's, while sampling
	Steal      float64           `json:"steal_seconds,omitempty"` // the host's, by the server's part of its busy time
	Libraries  []ProfileCount    `json:"libraries,omitempty"`
	Packages   []ProfileFunction `json:"packages,omitempty"`
	Functions  []ProfileFunction `json:"functions,omitempty"`
	Stacks     []FoldedStack     `json:"stacks,omitempty"`
}

// Available reports whether p holds a profile.
func (p *ServerProfile) Available() bool { return p != nil && p.Reason == "" }

// ProfileCount is a library's samples.
type ProfileCount struct {
	Name    string `json:"name"`
	Samples uint64 `json:"samples"`
}

// ProfileFunction is a function's (or package's) own samples.
type ProfileFunction struct {
	Name    string `json:"name"` // "[unknown]" when unresolved
	Library string `json:"library"`
	Samples uint64 `json:"samples"`
}

// FoldedStack is a call stack as flame graphs read it: "library`function" frames from the root.
type FoldedStack struct {
	Stack   string `json:"stack"`
	Samples uint64 `json:"samples"`
}

// Frames splits the stack into (library, function) frames, root first; OtherStacks is one frame.
func (f FoldedStack) Frames() [][2]string {
	if f.Stack == "" {
		return nil
	}
	parts := strings.Split(f.Stack, ";")
	out := make([][2]string, len(parts))
	for i, p := range parts {
		if lib, fn, ok := strings.Cut(p, "`"); ok {
			out[i] = [2]string{lib, fn}
		} else {
			out[i] = [2]string{"", p}
		}
	}
	return out
}

// FoldFrame is "library`function", with the separators in either replaced.
func FoldFrame(library, function string) string {
	clean := strings.NewReplacer(";", ":", "`", "'", "\n", " ")
	return clean.Replace(library) + "`" + clean.Replace(function)
}

// PprofFile is the variant's pprof file in the run directory, "profile-NAME.pb.gz".
func PprofFile(variant string) string {
	return "profile-" + unsafeFileChar.ReplaceAllString(variant, "-") + ".pb.gz"
}

var unsafeFileChar = regexp.MustCompile(`[^A-Za-z0-9._-]`)
