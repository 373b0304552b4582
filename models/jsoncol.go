package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// jsonColumn encodes v as JSON text for a text column.
func jsonColumn(v any) (driver.Value, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// scanJSONColumn decodes the JSON text of a text or blob column into dst;
// NULL leaves dst as it is.
func scanJSONColumn(src, dst any, typeName string) error {
	switch v := src.(type) {
	case string:
		return json.Unmarshal([]byte(v), dst)
	case []byte:
		return json.Unmarshal(v, dst)
	case nil:
		return nil
	default:
		return fmt.Errorf("%s: cannot scan %T", typeName, src)
	}
}
