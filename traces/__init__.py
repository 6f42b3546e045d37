"""repozero.traces"""
