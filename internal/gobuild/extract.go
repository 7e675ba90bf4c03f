package gobuild

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// extractPrefix names the cache directories Extract creates.
const extractPrefix = "runtime-"

// Extract writes the files of fsys into a directory under cacheRoot named after
// a hash of their content, and returns that directory. Test files and testdata
// directories are left out: a program never needs them. A directory that
// already exists is reused as is, so extraction happens once per content; it
// is created under a temporary name and renamed into place, so concurrent boc
// processes never see a half-written copy.
func Extract(fsys fs.FS, cacheRoot string) (string, error) {
	files, err := readExtractable(fsys)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(cacheRoot, extractPrefix+contentHash(files)[:16])
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cacheRoot, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(cacheRoot, ".extract-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place
	for _, f := range files {
		dst := filepath.Join(tmp, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(dst, f.data, 0o644); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process may have finished the same extraction first.
		if _, statErr := os.Stat(dir); statErr == nil {
			return dir, nil
		}
		return "", err
	}
	return dir, nil
}

// sourceFile is one file to extract; name is slash-separated.
type sourceFile struct {
	name string
	data []byte
}

// readExtractable reads the regular files of fsys a build needs, in lexical
// order.
func readExtractable(fsys fs.FS) ([]sourceFile, error) {
	var files []sourceFile
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && d.Name() == "testdata":
			return fs.SkipDir
		case d.IsDir() || strings.HasSuffix(name, "_test.go"):
			return nil
		case !d.Type().IsRegular():
			return fmt.Errorf("extract %s: not a regular file", name)
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		files = append(files, sourceFile{name, data})
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, errors.New("extract: no files to extract")
	}
	return files, nil
}

// contentHash is the hex SHA-256 of the files' names and contents. Each name and
// content is length-prefixed so that no two different trees hash alike.
func contentHash(files []sourceFile) string {
	h := sha256.New()
	field := func(b []byte) {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	for _, f := range files {
		field([]byte(f.name))
		field(f.data)
	}
	return hex.EncodeToString(h.Sum(nil))
}
