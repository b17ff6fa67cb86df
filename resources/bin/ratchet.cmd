@echo off
rem The `ratchet` command of an installed Ratchet on Windows: runs the CLI inside Ratchet.exe (add this folder to PATH).
"%~dp0..\..\Ratchet.exe" --ratchet-cli -- %*
