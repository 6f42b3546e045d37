"""repozero.orchestrator"""
