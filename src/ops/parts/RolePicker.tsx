import { useTranslation } from 'react-i18next';
import { operatorRoles } from '../../../api-schema/endpoint';
import type { OperatorRole } from '../../../api-schema/endpoint';

/** Roles as checkboxes (admin holds every role). */
export function RolePicker({ id, label, value, onChange, allowed = operatorRoles }: { id: string; label: string; value: readonly OperatorRole[]; onChange: (roles: OperatorRole[]) => void; allowed?: readonly OperatorRole[] }) {
  const { t } = useTranslation('ops');
  return (
    <fieldset id={id} className="desk-row">
      <legend className="field-label">{label}</legend>
      {allowed.map((role) => (
        <label key={role} className="desk-check">
          <input type="checkbox" checked={value.includes(role)} onChange={(event) => onChange(event.target.checked ? [...value, role] : value.filter((item) => item !== role))} />
          {t(`roles.${role}`)}
        </label>
      ))}
    </fieldset>
  );
}
