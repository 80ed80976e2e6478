"""Word lists the gates read, kept apart from the code that reads them (issue 14 step 5):
plain literal data, no logic, no imports. Each module names the gate that uses it."""
