//go:build !linux

package results

// renameNoReplace renames oldpath to newpath, failing with an error that
// wraps fs.ErrExist if newpath exists (checked just before the rename).
func renameNoReplace(oldpath, newpath string) error { return renameIfAbsent(oldpath, newpath) }
