"""repozero.oracle"""
