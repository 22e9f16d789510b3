ecsprof --cluster report tasks --grup-by family
