package handlers

import (
	"strings"
	"testing"
)

func TestPeekMCPCallReadsMethodAndToolFromTheStart(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("A", 1<<20)
	for _, c := range []struct {
		name, head   string
		method, tool string
	}{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "ping", ""},
		{"a call, name first", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"upload_document","arguments":{"content_base64":"` + big, "tools/call", "upload_document"},
		{"params before method", `{"params":{"_meta":{"k":[1,{"a":[]}]},"name":"update_transaction"},"id":1,"method":"tools/call"}`, "tools/call", "update_transaction"},
		{"a ping's params are not read", `{"method":"ping","params":{"name":"upload_document"}}`, "ping", ""},
		{"the name after a truncated argument", `{"method":"tools/call","params":{"arguments":{"x":"` + big, "tools/call", ""},
		{"a method that is not a string", `{"method":7,"params":{"name":"upload_document"}}`, "", "upload_document"},
		{"a name that is not a string", `{"method":"tools/call","params":{"name":{"a":1}}}`, "tools/call", ""},
		{"params that are an array", `{"params":["upload_document"],"method":"tools/call"}`, "tools/call", ""},
		{"keys in other case", `{"Method":"tools/call","params":{"Name":"upload_document"}}`, "", ""},
		{"not an object", `["method","tools/call"]`, "", ""},
		{"not JSON", `method: tools/call`, "", ""},
	} {
		method, tool := peekMCPCall([]byte(c.head))
		if method != c.method || tool != c.tool {
			t.Errorf("%s: peek = %q, %q; want %q, %q", c.name, method, tool, c.method, c.tool)
		}
	}
}
