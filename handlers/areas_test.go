package handlers

import (
	"reflect"
	"testing"
)

// TestEachAreaHoldsOnlyNarrowStores keeps the handler areas honest: every
// store an area's handler holds is an interface of at most 12 methods, and
// none is the router's Store (which only New may know).
func TestEachAreaHoldsOnlyNarrowStores(t *testing.T) {
	t.Parallel()
	const maxMethods = 12
	whole := reflect.TypeFor[Store]()
	for _, area := range []reflect.Type{
		reflect.TypeFor[apiHandler](), reflect.TypeFor[roomHandler](),
		reflect.TypeFor[adminHandler](), reflect.TypeFor[publicHandler](),
	} {
		stores := 0
		for i := range area.NumField() {
			f := area.Field(i)
			if f.Type.Kind() != reflect.Interface {
				continue
			}
			stores++
			if f.Type == whole {
				t.Errorf("%s.%s holds the whole Store", area.Name(), f.Name)
			}
			if n := f.Type.NumMethod(); n > maxMethods {
				t.Errorf("%s.%s is %s with %d methods; split it (at most %d)", area.Name(), f.Name, f.Type.Name(), n, maxMethods)
			}
		}
		if stores == 0 {
			t.Errorf("%s holds no store: the check looks at nothing", area.Name())
		}
	}
}
