package rundir

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"strconv"
)

// A journal line ends in ,"crc32":"xxxxxxxx"}, the CRC-32 of the object without it: a flipped byte
// is an error naming the line, not a silently different run.
const crcField = `,"crc32":"`

// sealLen is the length of the checksum field and the closing brace.
const sealLen = len(crcField) + 8 + 2

func seal(b []byte) []byte {
	sum := fmt.Sprintf(`%s%08x"}`, crcField, crc32.ChecksumIEEE(b))
	return append(b[:len(b)-1], sum...)
}

// unseal returns the record of a sealed line, or the line itself when it carries no checksum.
func unseal(line []byte) ([]byte, error) {
	line = bytes.TrimSuffix(line, []byte("\n"))
	n := len(line) - sealLen
	if n < 1 || !bytes.Equal(line[n:n+len(crcField)], []byte(crcField)) || !bytes.HasSuffix(line, []byte(`"}`)) {
		return line, nil
	}
	want, err := strconv.ParseUint(string(line[n+len(crcField):len(line)-2]), 16, 32)
	if err != nil {
		return line, nil // not a checksum: the decoder names the field
	}
	body := append(line[:n:n], '}')
	if got := crc32.ChecksumIEEE(body); uint64(got) != want {
		return nil, fmt.Errorf("damaged: its checksum is %08x, the record's %08x", want, got)
	}
	return body, nil
}
