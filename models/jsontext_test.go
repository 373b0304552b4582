package models

import "testing"

func TestLocateBadText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		body, ptr, code string
	}{
		{`{"a":"b","c":[1,"d",{"e":null}]}`, "", ""},
		{`{"a":"x\\u0000y"}`, "", ""}, // an escaped backslash, then the text u0000
		{`{"a":"\u00e9\ud800"}`, "", ""},
		{`{"a":{"b":["x","y\u0000"]}}`, "#/a/b/1", "invalid_character"},
		{`{"a":{"k\u0000":1}}`, "#/a/k\x00", "invalid_character"},
		{"{\"a\":[1, {\"b\":\"\xff\xfe\"}]}", "#/a/1/b", "invalid_encoding"},
		{"{\"customData\":{\"\xc0\xaf\":1}}", "#/customData/\ufffd\ufffd", "invalid_encoding"},
		{"{\"t\":\"\xed\xa0\x80\"}", "#/t", "invalid_encoding"},
		{"{\"a~/b\":\"\x00\"}", "", ""}, // a raw NUL byte is not valid JSON, refused before this
	} {
		ptr, code := locateBadText([]byte(c.body))
		if ptr != c.ptr || code != c.code {
			t.Errorf("locateBadText(%q) = %q, %q; want %q, %q", c.body, ptr, code, c.ptr, c.code)
		}
	}
}

func TestRequestBodiesRefuseTextPostgreSQLCannotHold(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"room request, invalid UTF-8 in a name": "{\"senderId\":\"1\",\"documents\":[],\"participants\":[{\"firstName\":\"\xff\",\"lastName\":\"B\",\"email\":\"a@example.com\"}]}",
		"room request, NUL in a name":           `{"senderId":"1","documents":[],"participants":[{"firstName":"A\u0000","lastName":"B","email":"a@example.com"}]}`,
	} {
		_, err := ParseRoomInput([]byte(body))
		ve, ok := err.(*ValidationError)
		if !ok || ve.Kind != KindInvalid || len(ve.Errors) != 1 || ve.Errors[0].Pointer != "#/participants/0/firstName" {
			t.Errorf("%s: %v", name, err)
		}
	}
}
