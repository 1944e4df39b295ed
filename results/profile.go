package results

import "strings"

// Bounds of a stored server profile: a repetition keeps its libraries
// whole (there are few), its top functions and its heaviest folded stacks;
// what falls beyond is counted in one entry named OtherStacks, so that
// the counts still add up to Samples.
const (
	// ProfileFunctions is how many functions a repetition keeps.
	ProfileFunctions = 30
	// ProfileStacks is how many folded stacks a repetition keeps.
	ProfileStacks = 400
	// ProfileDepth is how many frames of a stack are kept, from the
	// leaf; deeper frames are dropped.
	ProfileDepth = 48
	// ProfileLibraries is how many libraries a repetition keeps (the
	// rest are counted under OtherLibraries).
	ProfileLibraries = 40
	// ProfilePackages is how many Go packages a repetition keeps.
	ProfilePackages = 200
)

// OtherStacks names the folded stack that counts the samples of the
// stacks beyond ProfileStacks; OtherLibraries the library that counts
// those beyond ProfileLibraries; OtherPackages the package that counts
// those beyond ProfilePackages.
const (
	OtherStacks    = "[other stacks]"
	OtherLibraries = "[other libraries]"
	OtherPackages  = "[other packages]"
)

// DefaultCryptoLibraries is what counts as crypto (ProfileSpec.Crypto)
// unless the scenario says: OpenSSL's, BoringSSL's and GmSSL's libraries,
// the KAE engine and UADK (kae.so, libwd*, libhisi*), Intel QAT's engine,
// provider and drivers, the HiSilicon and QAT kernel modules, and Go's
// crypto packages (the standard library's, its fips140 core, x/crypto).
var DefaultCryptoLibraries = []string{"libcrypto", "libssl", "libgmssl", "kae", "libkae", "libwd*", "libhisi*", "qatengine", "qatprovider", "libqat*", "libusdm*", "[hisi_", "[qat", "[intel_qat]", "crypto/...", "golang.org/x/crypto/..."}

// ProfileSpec says that the run profiled the server (server.profile) and
// how: the sampling rate and what counts as crypto.
type ProfileSpec struct {
	// Rate is perf's sampling rate in Hz (samples per CPU-second).
	Rate int `json:"rate_hz"`
	// Crypto is what counts as crypto (IsCrypto, IsCryptoPackage):
	// DefaultCryptoLibraries unless the scenario lists its own.
	Crypto []string `json:"crypto_libraries"`
}

// IsCrypto reports whether a library (as ServerProfile.Libraries names
// it: "libcrypto.so.3", "kernel", "[hisi_hpre]") is crypto, case ignored:
// an entry names it exactly, less any ".so" suffix and version
// ("libcrypto" is libcrypto.so.3, not libcrypto-legacy.so); one ending in
// "*", or a "[" left open ("[hisi_"), is a prefix.
func (s *ProfileSpec) IsCrypto(library string) bool {
	l := strings.ToLower(library)
	if i := strings.Index(l, ".so"); i > 0 && (len(l) == i+3 || l[i+3] == '.') {
		l = l[:i]
	}
	for _, e := range s.Crypto {
		e = strings.ToLower(e)
		switch {
		case strings.Contains(e, "/") || e == "":
		case strings.HasSuffix(e, "*") || strings.HasPrefix(e, "[") && !strings.HasSuffix(e, "]"):
			if strings.HasPrefix(l, strings.TrimSuffix(e, "*")) {
				return true
			}
		case l == e:
			return true
		}
	}
	return false
}

// IsCryptoPackage reports whether a Go package's functions are crypto:
// an entry with a "/" is a package path, "P/..." P and every package
// under it; a leading "vendor/" (the standard library's copy of
// golang.org/x/crypto) is ignored.
func (s *ProfileSpec) IsCryptoPackage(pkg string) bool {
	pkg = strings.TrimPrefix(pkg, "vendor/")
	for _, e := range s.Crypto {
		if !strings.Contains(e, "/") {
			continue
		}
		if tree, ok := strings.CutSuffix(e, "/..."); ok && (pkg == tree || strings.HasPrefix(pkg, tree+"/")) || pkg == e {
			return true
		}
	}
	return false
}

// CryptoSamples counts p's crypto samples: those in crypto libraries,
// and those in functions of crypto packages of the other libraries.
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

// ServerProfile is where the server's CPU went during one measured
// window: perf's cpu-clock samples of the server's processes, by library
// (the sampled instruction's DSO), by function and as folded stacks. When
// there is no profile, Reason says why and the rest is empty.
type ServerProfile struct {
	// Reason says why there is no profile ("perf not found", "not
	// permitted: perf_event_paranoid=3 …"); "" when there is one.
	Reason string `json:"reason,omitempty"`
	// Host is where the server ran: "local" or the ssh host's name.
	Host string `json:"host,omitempty"`
	// PIDs are the server's processes perf sampled.
	PIDs []int `json:"pids,omitempty"`
	// Rate is the sampling rate in Hz: one sample per 1/Rate s of CPU.
	Rate int `json:"rate_hz,omitempty"`
	// Seconds is how long sampling was enabled (from perf's
	// acknowledgement of the enable to that of the disable).
	Seconds float64 `json:"seconds,omitempty"`
	// Samples is the number of samples.
	Samples uint64 `json:"samples"`
	// CPUSeconds is the server's CPU time while sampling was enabled, by
	// the kernel's accounting (/proc/PID/stat of the PIDs, read on the
	// server's host right after perf acknowledged the enable and the
	// disable): Samples should be CPUSeconds × Rate (the self-check); 0
	// when not read.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// Libraries are the samples by library, most first: the sampled
	// instruction's DSO by base name ("libcrypto.so.3"), the kernel as
	// "kernel", an unresolved one as "[unknown]".
	Libraries []ProfileCount `json:"libraries,omitempty"`
	// Packages are the samples by Go package of the sampled function
	// ("crypto/internal/fips140/bigmod") and library, most first, at most
	// ProfilePackages (the rest under OtherPackages); none for functions
	// outside a Go package.
	Packages []ProfileFunction `json:"packages,omitempty"`
	// Functions are the functions with the most samples of their own
	// (the sampled instruction's symbol), at most ProfileFunctions, most
	// first; an unresolved symbol is "[unknown]" in its library.
	Functions []ProfileFunction `json:"functions,omitempty"`
	// Stacks are the heaviest call stacks in folded form, at most
	// ProfileStacks (the rest under OtherStacks), most first.
	Stacks []FoldedStack `json:"stacks,omitempty"`
}

// Available reports whether p holds a profile.
func (p *ServerProfile) Available() bool { return p != nil && p.Reason == "" }

// ProfileCount is a number of samples of something named.
type ProfileCount struct {
	// Name is the library's name.
	Name string `json:"name"`
	// Samples counts its samples.
	Samples uint64 `json:"samples"`
}

// ProfileFunction is a function's own samples.
type ProfileFunction struct {
	// Name is the symbol ("[unknown]" when perf could not resolve it).
	Name string `json:"name"`
	// Library is the library it is in.
	Library string `json:"library"`
	// Samples counts the samples whose instruction was in it.
	Samples uint64 `json:"samples"`
}

// FoldedStack is one call stack and its samples, in the folded form
// flame graphs read: frames from the root to the leaf, separated by ";",
// each "library`function".
type FoldedStack struct {
	// Stack is the frames, root first.
	Stack string `json:"stack"`
	// Samples counts the samples with this stack.
	Samples uint64 `json:"samples"`
}

// Frames splits a folded stack into its frames, root first, each as
// (library, function); a frame without "`" is a function of no library.
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

// FoldFrame is one frame of a folded stack: "library`function", with the
// separators ";" and "`" in either replaced by ":" and "'".
func FoldFrame(library, function string) string {
	clean := strings.NewReplacer(";", ":", "`", "'", "\n", " ")
	return clean.Replace(library) + "`" + clean.Replace(function)
}

// PprofFile is the name in the run directory of the pprof file of the
// variant named variant: "profile-NAME.pb.gz", NAME with every character
// outside [A-Za-z0-9._-] replaced by '-'.
func PprofFile(variant string) string {
	var b strings.Builder
	for _, c := range variant {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	return "profile-" + b.String() + ".pb.gz"
}
