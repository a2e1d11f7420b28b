import { useEffect, useId, useState } from 'react';
import { Box, IconButton, InputAdornment, TextField, Tooltip } from '@mui/material';
import CheckIcon from '@mui/icons-material/Check';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useTranslation } from 'react-i18next';
import { visuallyHidden } from '../../components/visuallyHidden';

export interface CopyFieldProps {
  label: string;
  value: string;
  /** The copy button's accessible name; "Copy {label}" unless given. */
  copyLabel?: string;
}

/** How long the button shows its tick after a copy. */
const COPIED_FOR_MS = 3000;

/**
 * A read-only value a user types into another app (an API key, a server address), with a copy button when the
 * browser allows it (the clipboard API needs a secure context: plain http on a LAN address has none, and then the
 * value is selected by hand). Values are left-to-right in every language: they are addresses and keys.
 */
export function CopyField({ label, value, copyLabel }: CopyFieldProps) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const copyName = copyLabel ?? t('account.copyNamed', { name: label });
  const statusId = useId();
  const canCopy = typeof navigator !== 'undefined' && !!navigator.clipboard;

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };

  return (
    <Box>
      <TextField
        label={label}
        value={value}
        fullWidth
        // Wrapped, not scrolled: a Kobo address with its key is longer than a phone's width, and all of it is typed.
        multiline
        size="small"
        onFocus={(e) => e.target.select()}
        slotProps={{
          htmlInput: { readOnly: true, dir: 'ltr', style: { fontFamily: 'monospace' } },
          input: canCopy
            ? {
                endAdornment: (
                  <InputAdornment position="end">
                    <Tooltip title={copied ? t('account.copied') : copyName}>
                      <IconButton
                        aria-label={copyName}
                        aria-describedby={statusId}
                        onClick={() => void copy()}
                        edge="end"
                      >
                        {copied ? <CheckIcon color="success" /> : <ContentCopyIcon />}
                      </IconButton>
                    </Tooltip>
                  </InputAdornment>
                ),
              }
            : undefined,
        }}
      />
      <Box id={statusId} role="status" sx={visuallyHidden}>
        {copied ? t('account.copied') : ''}
      </Box>
    </Box>
  );
}
