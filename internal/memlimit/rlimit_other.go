//go:build !unix

package memlimit

import "io/fs"

// addressRoom: no address-space limit is known here.
func addressRoom(fs.FS) (int64, bool) { return 0, false }
