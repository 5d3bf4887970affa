"""Referee: a rules referee service and bot arena for Yunnan, Dschunke and Yinzi: Ming."""

__version__ = "0.1.0"
