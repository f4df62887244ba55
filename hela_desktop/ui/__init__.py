"""The desktop app: a Qt view over the Qt-free assistant and memory engine.

Everything that imports Qt lives in this package.  The assistant runs in a worker
thread (`worker.AssistantWorker`) and its events reach the widgets through Qt signals.
"""
