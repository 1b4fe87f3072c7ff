-- The modules of the device components and the module types of their templates (V50 left the
-- templates' module_type_id without its reference and the components without a module).
do $$
declare
    t text;
begin
    foreach t in array array['dcim_consoleporttemplate', 'dcim_consoleserverporttemplate', 'dcim_powerporttemplate',
            'dcim_poweroutlettemplate', 'dcim_interfacetemplate', 'dcim_rearporttemplate', 'dcim_frontporttemplate'] loop
        execute format('alter table %I add foreign key (module_type_id) references dcim_moduletype(id) on delete cascade', t);
        execute format('create index on %I(module_type_id)', t);
    end loop;
    foreach t in array array['dcim_consoleport', 'dcim_consoleserverport', 'dcim_powerport', 'dcim_poweroutlet',
            'dcim_rearport', 'dcim_frontport'] loop
        execute format('alter table %I add column module_id bigint references dcim_module(id) on delete cascade', t);
        execute format('create index on %I(module_id)', t);
    end loop;
end
$$;
