"""repozero.sandbox"""
