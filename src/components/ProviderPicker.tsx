import { Button } from './Button';

interface ProviderPickerProps {
  providers: readonly { id: string; name: string; icon?: string }[];
  onChoose: (providerId: string) => void;
}

/** Several wallets announced themselves: one button per wallet. */
export function ProviderPicker({ providers, onChoose }: ProviderPickerProps) {
  return (
    <ul className="provider-list">
      {providers.map((provider) => (
        <li key={provider.id}>
          <Button variant="secondary" onClick={() => onChoose(provider.id)}>
            {provider.icon ? <img src={provider.icon} alt="" className="provider-icon" /> : null}
            {provider.name}
          </Button>
        </li>
      ))}
    </ul>
  );
}
