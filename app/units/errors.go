package units

func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func Unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}
