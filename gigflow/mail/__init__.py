"""Reading e-mail from mail servers (the mailbox spider's IMAP form)."""
