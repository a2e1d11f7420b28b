import { Fragment } from 'react';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslation } from 'react-i18next';
import { useFullScreenDialog } from '../../components/dialogs';

export interface Shortcut {
  /**
   * Key names as KeyboardEvent.key gives them (shown with symbols for arrows), each one alone doing the action; a
   * list is a combination pressed together (`['Shift', ' ']`).
   */
  keys: readonly (string | readonly string[])[];
  description: string;
}

export interface ShortcutSection {
  title: string;
  shortcuts: readonly Shortcut[];
}

/** Key caps as printed on keyboards. */
const CAPS: Record<string, string> = {
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
  Escape: 'Esc',
  Control: 'Ctrl',
  PageDown: 'PgDn',
  PageUp: 'PgUp',
};

function KeyCap({ name }: { name: string }) {
  const { t } = useTranslation();
  const label = name === ' ' ? t('reader.keySpace') : (CAPS[name] ?? name);
  return (
    <Box
      component="kbd"
      sx={{
        display: 'inline-block',
        minWidth: 24,
        px: 0.75,
        py: 0.25,
        mx: 0.25,
        border: 1,
        borderColor: 'divider',
        borderBottomWidth: 2,
        borderRadius: 1,
        fontFamily: 'monospace',
        fontSize: '0.85rem',
        textAlign: 'center',
      }}
    >
      {label}
    </Box>
  );
}

/** The keyboard shortcut help of a reader: one table per section, side by side when there is room. */
export function ShortcutHelp(props: { open: boolean; onClose: () => void; sections: readonly ShortcutSection[] }) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      fullScreen={fullScreen}
      maxWidth="lg"
      fullWidth
      aria-labelledby="reader-shortcuts-title"
    >
      <DialogTitle id="reader-shortcuts-title" sx={{ display: 'flex', alignItems: 'center' }}>
        <Box component="span" sx={{ flex: 1 }}>
          {t('reader.shortcuts')}
        </Box>
        <IconButton onClick={props.onClose} aria-label={t('common.close')}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent
        sx={{
          display: 'grid',
          gap: 3,
          gridTemplateColumns: { xs: '1fr', md: `repeat(${props.sections.length}, 1fr)` },
        }}
      >
        {props.sections.map((section) => (
          <Box component="section" key={section.title}>
            <Typography component="h3" variant="subtitle1" sx={{ mb: 1 }}>
              {section.title}
            </Typography>
            <Table size="small">
              <TableBody>
                {section.shortcuts.map((s) => (
                  <TableRow key={s.description}>
                    <TableCell sx={{ whiteSpace: 'nowrap', width: '1%' }}>
                      {s.keys.map((k) =>
                        typeof k === 'string' ? (
                          <KeyCap key={k} name={k} />
                        ) : (
                          <Box component="kbd" key={k.join('+')} sx={{ display: 'inline-block', mx: 0.25 }}>
                            {k.map((part, i) => (
                              <Fragment key={part}>
                                {i > 0 && '+'}
                                <KeyCap name={part} />
                              </Fragment>
                            ))}
                          </Box>
                        ),
                      )}
                    </TableCell>
                    <TableCell>{s.description}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
        ))}
      </DialogContent>
    </Dialog>
  );
}
