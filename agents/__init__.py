"""repozero.agents"""
